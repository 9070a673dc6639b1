/// The secrets an export must not write, each with the name it is read by where the export runs
/// (`token` → `FATHOM_SECRET_TOKEN`). Every exporter splits its text here, then spells a
/// secret its own way: `${FATHOM_SECRET_TOKEN}` in a shell word, `\(secret("TOKEN"))` in Swift.
struct ExportSecrets {
    struct Secret {
        var value: String
        var name: String
    }

    /// A run of text, or a secret by its environment variable's name.
    enum Piece: Equatable {
        case text(String)
        case secret(variable: String)
    }

    /// Longest value first.
    let all: [Secret]

    init(_ secrets: [Secret]) {
        // A longer secret that contains a shorter one is matched first.
        self.all = secrets.filter { !$0.value.isEmpty }.sorted { $0.value.count > $1.value.count }
    }

    func contains(in text: String) -> Bool { all.contains { text.contains($0.value) } }

    /// `text` as runs of plain text and secrets.
    func pieces(_ text: String) -> [Piece] {
        var pieces: [Piece] = []
        var plain = ""
        var rest = Substring(text)
        while !rest.isEmpty {
            if let secret = all.first(where: { rest.hasPrefix($0.value) }) {
                if !plain.isEmpty { pieces.append(.text(plain)) }
                plain = ""
                pieces.append(.secret(variable: DotEnv.secretKey(for: secret.name)))
                rest = rest.dropFirst(secret.value.count)
            } else {
                plain.append(rest.removeFirst())
            }
        }
        if !plain.isEmpty { pieces.append(.text(plain)) }
        return pieces
    }
}
