import FathomHTTP
import Foundation

/// Which API a request belongs to, and the state that belongs to the API (see ``API``).
extension Executor {
    /// The scope of a request to the absolute URL `url` with no draft credentials (a WebSocket's
    /// upgrade, a description fetched): `nil` when it has no http(s) origin.
    func scope(ofURL url: String) -> Scope? {
        session.scopeRules.scope(forURL: url)
    }

    /// The current API, for a command that sets what belongs to one (`auth`, `default`, `validate`).
    ///
    /// - Throws: ``CommandError`` when there is no base URL, so no API to set it for.
    func currentAPIIndex(for command: String) throws(CommandError) -> Int {
        if let current = session.current { return current }
        let draftOrigin = session.scopeRules.origin(ofTarget: session.draft.target)
        throw CommandError(
            .session, "\(command) belongs to an API, and no base URL names one",
            hint: "set the API's base first: `base \(draftOrigin?.description ?? "https://api.example.com")`")
    }

    /// Makes `template` the base URL and says what became of the state of the API before it.
    ///
    /// The API on the base's origin (resolved now, variables expanded) becomes current, its base
    /// now this URL (a path on the same origin changes only the path); on a new origin a new API
    /// is made, and the one before keeps its state for when the base comes back to it — unless it
    /// goes along: `moving` (`base --move`), or its base came from a description's servers, which
    /// are only the default until the person names a base of their own.
    ///
    /// - Returns: The line that says what stayed behind or what went along, when anything did.
    @discardableResult
    func useBase(_ template: String, moving: Bool = false) throws -> BaseChange? {
        let expanded = try session.variables.expand(template)
        let origin = Origin(try RequestURL(parsing: expanded))
        let before = session.current
        let previous = before.map { session.apis[$0] }
        if let previous, let before, moving || previous.baseFromDescription, previous.origin != origin {
            if let other = session.scopeRules.api(on: origin) {
                guard !session.apis[other].hasState else {
                    throw CommandError(
                        .session, "\(origin) has an API of its own already, with its own state",
                        hint: "`base \(template)` switches to it; `show session` lists what each holds")
                }
                session.apis.remove(at: other)
                session.current = other < before ? before - 1 : before
            }
            let index = session.current ?? before
            session.apis[index].base = template
            session.apis[index].origin = origin
            session.apis[index].baseFromDescription = false
            return previous.hasState ? change(.moved, previous, to: origin) : nil
        }
        if let index = session.scopeRules.api(on: origin) {
            session.apis[index].base = template
            session.apis[index].baseFromDescription = false
            session.current = index
        } else {
            var api = API(base: template, origin: origin)
            api.validation = session.settings.defaultValidation
            if session.apis.isEmpty, let given = session.givenSpec {
                // A description given from outside belongs to the first API the session names.
                api.spec = given
                session.givenSpec = nil
            }
            session.apis.append(api)
            session.current = session.apis.count - 1
        }
        guard let previous, previous.origin != origin, previous.hasState else { return nil }
        return change(.stayed, previous, to: origin)
    }

    private func change(_ kind: BaseChange.Kind, _ api: API, to origin: Origin) -> BaseChange {
        BaseChange(
            kind: kind, from: api.origin.description, to: origin.description, auth: api.auth.kindName,
            defaults: api.defaultHeaders.count + api.defaultQuery.count, description: api.spec?.description.title,
            base: api.base)
    }

    /// Moves the current API to `template` (an environment's base): the API keeps its state,
    /// so dev and staging are one API. With no current API, `template` names a new one; when
    /// another API is already on that origin, that one becomes current.
    func moveCurrentAPI(to template: String) throws {
        let expanded = try session.variables.expand(template)
        let origin = Origin(try RequestURL(parsing: expanded))
        guard let current = session.current else {
            _ = try useBase(template)
            return
        }
        if let other = session.scopeRules.api(on: origin, except: current) {
            session.apis[other].base = template
            session.current = other
            return
        }
        session.apis[current].base = template
        session.apis[current].origin = origin
    }

    /// Says once per origin that a request went where no API's state applies, when an API has
    /// state that stayed behind (its auth, defaults, description).
    func noticeOtherOrigin(_ origin: Origin) -> Event? {
        guard !record.originsNoticed.contains(origin) else { return nil }
        let candidates = ([session.current].compactMap { $0 } + Array(session.apis.indices))
        guard let index = candidates.first(where: { session.apis[$0].hasState }) else { return nil }
        record.originsNoticed.insert(origin)
        let api = session.apis[index]
        return .otherOrigin(
            OtherOrigin(
                origin: origin.description, api: api.origin.description, auth: api.auth.kindName,
                defaults: api.defaultHeaders.count + api.defaultQuery.count, description: api.spec != nil))
    }
}

extension AuthSpec {
    /// `bearer`, `basic`, `apikey`, `oauth2`; `nil` for none.
    var kindName: String? {
        switch self {
        case .none: nil
        case .bearer: "bearer"
        case .basic: "basic"
        case .apiKey: "apikey"
        case .oauth2ClientCredentials, .oauth2: "oauth2"
        case .awsSigV4: "aws-sigv4"
        }
    }
}
