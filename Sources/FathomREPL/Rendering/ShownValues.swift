@_spi(Fathom) import FathomHTTP
import Foundation

/// Session values as listings and settings show them: secrets masked, `{{references}}` kept
/// readable. Made by the executor (``Executor/shown``) from the session as it is.
struct ShownValues {
    let redactor: Redactor
    let variables: Variables

    /// A header's value as listings show it: a secret header's masked.
    func headerValue(_ header: Draft.Header) -> String {
        // `Bearer {{token}}` names a variable, which is no secret: shown as written, any secret
        // value in it still masked (`header` after an import lists such references).
        if Variables.hasReference(header.value) { return redactor.redact(header.value) }
        return redactor.redactHeaderValue(header.value, name: NetworkHeaders.Name(header.name))
    }

    /// A variable's value as listings show it: a secret's masked.
    func value(of name: String) -> String {
        let value = variables[name] ?? ""
        return variables.isSecret(name) ? Redactor.masked(value) : value
    }

    /// How requests are authorized, as `auth` and `show session` show it: the line's arguments,
    /// credentials masked unless they are `{{variable}}` references.
    func auth(_ auth: AuthSpec) -> String {
        switch auth {
        case .none: "none"
        case .bearer(let token): "bearer \(maskedTemplate(token))"
        case .basic(let user, let password): "basic \(user)\(password.map { ":\(maskedTemplate($0))" } ?? "")"
        case .apiKey(let placement, let name, let value):
            "apikey \(placement.rawValue) \(name) \(maskedTemplate(value))"
        case .oauth2ClientCredentials(let url, let id, let secret, let scope):
            "oauth2 client-credentials \(url) \(id) \(maskedTemplate(secret))\(scope.map { " \($0)" } ?? "")"
        case .oauth2(let grant):
            {
                var writer = LineWriter("oauth2")
                for word in grant.words {
                    if word.raw {
                        writer.raw(word.text)
                    } else if word.text == grant.clientSecret {
                        writer.raw(maskedTemplate(word.text))
                    } else {
                        writer.word(word.text)
                    }
                }
                return writer.text
            }()
        case .awsSigV4(let signing):
            (["aws-sigv4"] + signing.flags.flatMap { [$0.flag, $0.value] }
                + [signing.accessKey, signing.secretKey.map(maskedTemplate), signing.sessionToken.map(maskedTemplate)]
                .compactMap { $0 }).joined(separator: " ")
        }
    }

    /// A credential as written: a `{{variable}}` reference stays readable, a literal is masked.
    func maskedTemplate(_ template: String) -> String {
        template.hasPrefix("{{") && template.hasSuffix("}}") ? template : Redactor.masked(template)
    }
}

extension Executor {
    /// Session values as listings show them, masked.
    var shown: ShownValues { ShownValues(redactor: redactor, variables: session.variables) }
}
