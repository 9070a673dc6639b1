@_spi(Fathom) import FathomHTTP
import Foundation

/// `curl …`: a curl command line as pasted from an API's docs or a browser's "Copy as cURL"
/// (bash or Windows `cmd` form, over several lines with `\` or `^`): it becomes the draft and is
/// sent, as running it would.
///
/// The line is read once into the commands that do what it does (``Importer/Builder/curl(_:)``,
/// the mapping `fathom import` writes too): its client settings (`-k`, `-L`, `--max-time`, `-x`),
/// its credentials as secrets and as the request's own (`auth draft …`), then per URL the request
/// and `send`. Each runs through the executor as a typed line would — logged as itself, so `save`
/// writes what replays — and the line fails as a whole, changing nothing, when one part fails.
/// Flags that only shape curl's own output are accepted and named in one note; any other flag is
/// an error and nothing is sent.
struct CurlCommand: SingleCommand {
    static let spec = CommandSpec(
        name: "curl", synopsis: "curl [OPTIONS…] URL",
        summary: "run a pasted curl command line: it becomes the draft and is sent",
        details: """
            Quoting as bash reads it ('…', "…", $'…', backslashes, `\\` continuations) or as Windows cmd \
            does (`^`). -X -H -d --data-raw --data-binary --data-urlencode --json -F -G --url --url-query -u \
            --oauth2-bearer --aws-sigv4 --unix-socket -E/--cert --key --cacert --capath -b -A -e -I -T -k -L --max-redirs --max-time -x are taken; -s -v -i -o -w … are \
            accepted and ignored. Several URLs are each sent in turn. Pipes, several commands and $(…) are \
            refused; a $VAR is sent as written. The request carries the line's own credentials; `save` \
            writes the lines it became.
            """,
        completion: .paths, continuation: .shellWords, group: .draft)

    /// The words after `curl`, quoting resolved.
    var words: [String]
    /// `$NAME`s kept as written.
    var variables: [String]

    static func parse(_ arguments: inout Arguments) throws(CommandError) -> Self {
        let split = try ShellWords.split(arguments)
        // Checked now (files are read when it runs): a bad flag stops a session file before it starts.
        do {
            _ = try CurlInvocation.parse(split.words) { _ in Data() }
        } catch {
            var error = error
            error.hint = error.hint ?? arguments.usage
            throw error
        }
        return CurlCommand(words: split.words, variables: split.variables)
    }

    /// Kept as the lines it runs, each logged as itself, never as the curl line.
    var logKind: SessionLog.Kind? { nil }

    var replacesDraft: Bool { true }

    var line: String {
        var writer = LineWriter("curl")
        writer.words(words)
        return writer.text
    }

    func run(in executor: isolated Executor) async throws -> CommandResult {
        let imported = try Self.imported(words, executor)
        var result = try await executor.runImported(imported, sending: true)
        result.outputs.insert(contentsOf: Self.notes(words, variables: variables), at: 0)
        return result
    }

    /// The line as an import: the mapping `fathom import` uses, credentials named so as not to
    /// take the name of another of the session's variables.
    static func imported(_ words: [String], _ executor: isolated Executor) throws -> Importer.Imported {
        // `{{name}}` references (a saved curl line's secrets) expand; anything else stays as written.
        let expanded = words.map { (try? executor.session.variables.expand($0)) ?? $0 }
        let invocation = try CurlInvocation.parse(expanded) { path in
            try CurlInvocation.readFile(executor.resolvePath(path))
        }
        var builder = Importer.Builder(taken: executor.session.variables.values)
        builder.curl(invocation)
        return builder.finish(source: "the curl line", format: .curl)
    }

    /// What the line says about itself: flags that only shape curl's output, shell variables.
    static func notes(_ words: [String], variables: [String]) -> [Output] {
        guard let invocation = try? CurlInvocation.parse(words, read: { _ in Data() }) else { return [] }
        var notes: [Output] = []
        let ignored = invocation.outputFlags + invocation.ignoredFlags
        if !ignored.isEmpty { notes.append(.event(.curlIgnored(ignored))) }
        if !variables.isEmpty { notes.append(.event(.curlShellVariables(Array(Set(variables)).sorted()))) }
        if invocation.urls.count > 1 { notes.append(.event(.curlURLs(count: invocation.urls.count, sentInTurn: true))) }
        return notes
    }
}
