@_spi(Fathom) import FathomHTTP
import Foundation

/// `curl …`: a curl command line as pasted from an API's docs or a browser's "Copy as cURL"
/// (bash or Windows `cmd` form, over several lines with `\` or `^`): it becomes the draft and is
/// sent, as running it would.
///
/// `-u` and `--oauth2-bearer` set how the session authorizes (the password a secret); `-k`, `-L`,
/// `--max-time` and `-x` set the matching session settings. Flags that only shape curl's own output
/// are accepted and named in one note; any other flag is an error and nothing is sent.
struct CurlCommand: SingleCommand, Equatable {
    static let spec = CommandSpec(
        name: "curl", synopsis: "curl [OPTIONS…] URL",
        summary: "run a pasted curl command line: it becomes the draft and is sent",
        details: """
            Quoting as bash reads it ('…', "…", $'…', backslashes, `\\` continuations) or as Windows cmd \
            does (`^`). -X -H -d --data-raw --data-binary --data-urlencode --json -F -G --url --url-query -u \
            --oauth2-bearer -b -A -e -I -T -k -L --max-redirs --max-time -x are taken; -s -v -i -o -w … are \
            accepted and ignored. Several URLs are each sent in turn. Pipes, several commands and $(…) are \
            refused; a $VAR is sent as written.
            """,
        completion: .paths, group: .draft)

    /// The words after `curl`, quoting resolved.
    var words: [String]
    /// `$NAME`s kept as written.
    var variables: [String]

    static func parse(_ arguments: inout Arguments) throws(CommandError) -> Self {
        let column = arguments.column
        let split: ShellWords.Result
        do {
            split = try ShellWords.split(String(arguments.raw))
        } catch {
            throw CommandError(error.message, column: error.column.map { $0 + column - 1 }, hint: error.hint)
        }
        // Checked now (files are read when it runs): a bad flag stops a session file before it starts.
        do {
            _ = try CurlInvocation.parse(split.words) { _ in Data() }
        } catch {
            throw CommandError(error.message, column: error.column, hint: error.hint ?? arguments.usage)
        }
        return CurlCommand(words: split.words, variables: split.variables)
    }

    var logKind: SessionLog.Kind? { .request }

    func run(in executor: isolated Executor) async throws -> CommandResult {
        let (drafts, notes) = try await Self.apply(words, variables: variables, to: executor)
        // All checked before the first goes: a line with one bad URL sends nothing.
        var prepared: [PreparedRequest] = []
        for draft in drafts { prepared.append(try await executor.prepare(draft)) }
        var result = CommandResult(.succeeded, notes)
        if drafts.count > 1 {
            result.outputs.append(
                .notice(.aside("the curl line has \(drafts.count) URLs: each is sent in turn, as curl does")))
        }
        for (draft, request) in zip(drafts, prepared) {
            executor.session.draft = draft
            do {
                result.outputs += try await executor.send(request).outputs
            } catch  where result.response == nil {
                throw error
            } catch {
                // What came back before stays shown; the line stops where curl would report it.
                result.outcome = .failed
                result.outputs.append(.failure(Failure(error: error)))
                break
            }
        }
        return result
    }

    /// The drafts a curl line makes (one per URL, sent in turn as curl does), and what it said
    /// about itself. `-u`, `--oauth2-bearer`, `-k`, `-L`, `--max-time` and `-x` change the session
    /// here; the draft is the caller's to set.
    static func apply(
        _ words: [String], variables: [String], to executor: isolated Executor
    ) async throws -> ([Draft], [Output]) {
        // `{{name}}` references (a saved curl line's secrets) expand; anything else stays as written.
        let expanded = words.map { (try? executor.session.variables.expand($0)) ?? $0 }
        let curl = try CurlInvocation.parse(expanded) { path in
            try Data(contentsOf: URL(fileURLWithPath: Executor.expandTilde(path)))
        }
        var draft = Draft()
        draft.method = curl.method
        draft.headers = curl.headers.map { Draft.Header(name: $0.name, value: $0.value) }
        switch curl.body {
        case .none: draft.body = .none
        case .text(let text): draft.body = .raw(text)
        case .file(let path): draft.body = .file(path)
        case .multipart(let items): draft.body = .multipart(items)
        }
        let drafts = curl.urls.map { url in
            var one = draft
            one.target = url
            one.headers = curl.headers(for: url).map { Draft.Header(name: $0.name, value: $0.value) }
            return one
        }
        var changed: [String] = []
        if let user = curl.user {
            var password = user.password
            if password == nil {
                password = await executor.options.prompter.readSecret(prompt: "password for \(user.name): ")
            }
            let secret = password ?? ""
            if !secret.isEmpty { executor.redactor.addSecret(secret) }
            executor.redactor.addSecret(ClosureAuthenticator.basicCredentials(user: user.name, password: secret))
            executor.session.auth = .basic(user: user.name, password: secret)
            changed.append("auth basic \(user.name)")
        }
        if let bearer = curl.bearer {
            executor.redactor.addSecret(bearer)
            executor.session.auth = .bearer(bearer)
            changed.append("auth bearer")
        }
        if curl.insecure, !executor.session.settings.insecure {
            executor.session.settings.insecure = true
            changed.append("insecure on")
        }
        if let limit = curl.redirects, executor.session.settings.redirectLimit != limit {
            executor.session.settings.redirectLimit = limit
            changed.append("redirects \(limit)")
        }
        if let timeout = curl.timeout {
            executor.session.settings.timeout = timeout
            changed.append("timeout \(timeout.shortDescription)")
        }
        if let given = curl.proxy {
            let proxy = CurlInvocation.proxyURL(given)
            let server = try ProxyServer(parsing: proxy)
            if let password = server.password { executor.redactor.addSecret(password) }
            executor.session.settings.proxy = proxy
            changed.append("proxy")
        }
        var notes: [Output] = []
        if !changed.isEmpty {
            notes.append(.notice(.aside("from the curl line, for the session: " + changed.joined(separator: ", "))))
        }
        let ignored = curl.outputFlags + curl.ignoredFlags
        if !ignored.isEmpty {
            notes.append(.notice(.aside("ignored (curl's own output and transfer): " + ignored.joined(separator: " "))))
        }
        if !variables.isEmpty {
            let names = Array(Set(variables)).sorted().map { "$\($0)" }.joined(separator: ", ")
            notes.append(.notice(.aside("sent as written, as curl would without a shell to expand it: \(names)")))
        }
        return (drafts, notes)
    }
}
