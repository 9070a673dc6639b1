@_spi(Fathom) import FathomHTTP
import Foundation

/// `cert [draft] [FILE [--key FILE]] [--ca FILE|DIR] | cert [draft] off`: the client certificate the
/// base's API is shown when its server asks for one (mutual TLS), and a CA its server's
/// certificate is trusted by. Both belong to the API: a request to another origin goes with
/// neither. `cert draft …` gives the draft's request its own (a curl line's `--cert`).
struct CertCommand: SingleCommand {
    static let spec = CommandSpec(
        name: "cert", synopsis: "cert [draft] [FILE [--key FILE]] [--ca FILE|DIR] | cert [draft] off",
        summary: "the base's API's client certificate (mutual TLS) and the CA its server is trusted by",
        details: """
            PEM files: the certificate (and its chain), its private key (with `--key`, or \
            after the certificate in the same file), and with `--ca` the certificates the server's is \
            checked against beside the system's — a file of them, or a folder (curl's --capath: each file in \
            it that holds a PEM certificate, OpenSSL's hashed names included). Read when a connection is made; a redirect to another \
            origin goes without them. Bare, shows them; `off` forgets them. An encrypted key's passphrase \
            comes from the secret key_passphrase (FATHOM_SECRET_KEY_PASSPHRASE, `.env`) or is asked for \
            without echo; it is never saved. `cert draft …` gives the draft's request alone its own \
            (a curl line's --cert, --key, --cacert and --capath import so); the next one-liner or `reset` drops them.
            """,
        completion: .files, group: .client)

    /// The draft's request alone, not its API.
    var draft = false
    var certificate: String?
    var key: String?
    var ca: String?
    var off = false

    static func parse(_ arguments: inout Arguments) throws(CommandError) -> Self {
        var command = CertCommand()
        var copy = arguments
        if let first = try copy.optionalWord(), !first.quoted, first.text.lowercased() == "draft" {
            arguments = copy
            command.draft = true
        }
        while let word = try arguments.optionalWord() {
            switch word.quoted ? "" : word.text.lowercased() {
            case "--key": command.key = try arguments.word("the private key's file").text
            case "--ca": command.ca = try arguments.word("the CA's file").text
            case "off" where command.certificate == nil && command.key == nil && command.ca == nil:
                try arguments.end()
                command.off = true
            default:
                guard command.certificate == nil else {
                    throw CommandError(
                        .parse, .unexpected(word: word.text), column: word.column, hint: "usage: \(spec.synopsis)")
                }
                command.certificate = word.text
            }
        }
        if command.key != nil, command.certificate == nil {
            throw CommandError(
                .parse, .missing("the certificate before --key"), column: arguments.column,
                hint: "cert client.pem --key client.key")
        }
        return command
    }

    var logKind: SessionLog.Kind? {
        guard off || certificate != nil || ca != nil else { return nil }
        return draft ? .draft : .setting
    }

    var line: String {
        var writer = LineWriter("cert")
        if draft { writer.raw("draft") }
        if off { writer.raw("off") }
        if let certificate { writer.word(certificate) }
        if let key {
            writer.raw("--key")
            writer.word(key)
        }
        if let ca {
            writer.raw("--ca")
            writer.word(ca)
        }
        return writer.text
    }

    var filesRead: [String] { [certificate, key, ca].compactMap { $0 } }

    func run(in executor: isolated Executor) async throws -> CommandResult {
        let index = draft ? nil : try executor.currentAPIIndex(for: "cert")
        if off {
            if let index {
                executor.session.apis[index].clientIdentity = nil
                executor.session.apis[index].trustRootsFile = nil
            } else {
                executor.session.draft.clientIdentity = nil
                executor.session.draft.trustRootsFile = nil
            }
            return .done
        }
        guard certificate != nil || ca != nil else {
            let (identity, roots) =
                index.map { (executor.session.apis[$0].clientIdentity, executor.session.apis[$0].trustRootsFile) }
                ?? (executor.session.draft.clientIdentity, executor.session.draft.trustRootsFile)
            var shown = [identity.map { $0.certificateFile + ($0.keyFile.map { " --key \($0)" } ?? "") }]
            shown.append(roots.map { "--ca \($0)" })
            let text = shown.compactMap { $0 }.joined(separator: " ")
            return .shows(.setting(SettingShown(name: "cert", value: text.isEmpty ? .unset : .text(text))))
        }
        // Checked now, so a wrong file fails this line rather than every request after it: each
        // file read once, its path resolved and its text.
        func read(_ written: String, what: String) throws -> (path: String, text: String) {
            let path = executor.resolvePath(try executor.session.variables.expand(written))
            return (path, String(decoding: try BoundedFile.read(path, limit: 1 << 20, what: what), as: UTF8.self))
        }
        func certificates(_ file: (path: String, text: String)) throws -> String {
            guard file.text.contains("-----BEGIN CERTIFICATE-----") else {
                throw CommandError(
                    .file, "'\(file.path)' holds no PEM certificate",
                    hint: "give a file with `-----BEGIN CERTIFICATE-----`")
            }
            return file.path
        }
        var identity: ClientIdentity?
        if let certificate {
            let chain = try read(certificate, what: "a certificate")
            let certificateFile = try certificates(chain)
            let keyFile = try key.map { try read($0, what: "a private key") } ?? chain
            guard keyFile.text.contains("PRIVATE KEY-----") else {
                throw CommandError(
                    .file, "'\(keyFile.path)' holds no PEM private key",
                    hint: key == nil ? "name it: cert \(certificate) --key FILE" : "give a file with `PRIVATE KEY-----`"
                )
            }
            var passphrase: String?
            if keyFile.text.contains("ENCRYPTED") {
                passphrase = try await Self.passphrase(for: keyFile.path, in: executor)
            }
            let settled = ClientIdentity(
                certificateFile: certificateFile, keyFile: key == nil ? nil : keyFile.path, passphrase: passphrase)
            // A wrong passphrase fails this line, not the first connection.
            if passphrase != nil { _ = try settled.privateKey() }
            identity = settled
        }
        let caFile = try ca.map { written in
            let path = executor.resolvePath(try executor.session.variables.expand(written))
            // A folder of CA certificates (curl's --capath): checked to hold at least one.
            guard TrustRoots.isFolder(path) else {
                return try certificates(try read(written, what: "a CA certificate"))
            }
            do {
                _ = try TrustRoots.files(at: path)
            } catch {
                throw CommandError(
                    .file, "'\(path)' holds no file with a PEM certificate",
                    hint: "a CA folder holds files with `-----BEGIN CERTIFICATE-----` (ca.pem, 5ed36f99.0)")
            }
            return path
        }
        if let index {
            if let identity { executor.session.apis[index].clientIdentity = identity }
            if let caFile { executor.session.apis[index].trustRootsFile = caFile }
        } else {
            if let identity { executor.session.draft.clientIdentity = identity }
            if let caFile { executor.session.draft.trustRootsFile = caFile }
        }
        return .done
    }

    /// The secret whose value decrypts an encrypted key: from the session, FATHOM_SECRET_KEY_PASSPHRASE
    /// or `.env`, else asked at the terminal. It is never saved: a replay takes it from the
    /// environment.
    static let passphraseSecret = "key_passphrase"

    /// The passphrase of the encrypted key in `path`, masked from now on.
    private static func passphrase(for path: String, in executor: isolated Executor) async throws -> String {
        let name = passphraseSecret
        let value: String
        if let known = executor.session.variables.values[name] ?? executor.storedSecretValue(name) {
            value = known
        } else {
            do {
                value = try await executor.ask(
                    for: name, prompt: "passphrase for \((path as NSString).lastPathComponent): ")
            } catch is CommandError where !executor.options.prompter.canAskForSecrets {
                throw CommandError(
                    .session, .noValue(secret: name, typed: false, canBeAsked: false),
                    hint:
                        "the private key in '\(path)' is encrypted: set \(DotEnv.secretKey(for: name)), or run on a terminal to be asked"
                )
            }
        }
        executor.redactor.addSecret(value)
        return value
    }
}
