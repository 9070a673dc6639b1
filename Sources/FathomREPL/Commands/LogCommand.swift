import FathomHTTP
import Foundation

/// `log [off|info|headers|body] [FILE]`: the masked wire log, on standard error or in a file.
struct LogCommand: SingleCommand {
    static let spec = CommandSpec(
        name: "log", synopsis: "log [off|info|headers|body] [FILE]",
        summary: "the masked wire log, on standard error or appended to FILE",
        completion: .words(["off", "info", "headers", "body"]), group: .client)

    /// `nil` shows the setting.
    var detail: LogDetail?
    var file: String?

    static func parse(_ arguments: inout Arguments) throws(CommandError) -> Self {
        guard let word = try arguments.optionalWord() else { return LogCommand(detail: nil, file: nil) }
        guard let detail = LogDetail(rawValue: word.text.lowercased()) else {
            throw arguments.badChoice(word, LogDetail.allCases.map(\.rawValue))
        }
        let file = try arguments.optionalWord()?.text
        try arguments.end()
        return LogCommand(detail: detail, file: file)
    }

    /// What this session shows of its traffic, not what it sends: not saved.
    var logKind: SessionLog.Kind? { nil }

    var line: String {
        var writer = LineWriter("log")
        if let detail { writer.raw(detail.rawValue) }
        if let file { writer.word(file) }
        return writer.text
    }

    func run(in executor: isolated Executor) async throws -> CommandResult {
        let settings = executor.session.settings
        guard let detail else {
            return .shows(
                .setting(
                    SettingShown(name: "log", value: .log(level: settings.logDetail.rawValue, file: settings.logFile))))
        }
        if let file {
            let path = executor.resolvePath(file)
            guard
                FileManager.default.fileExists(atPath: path)
                    || FileManager.default.createFile(
                        atPath: path, contents: nil, attributes: [.posixPermissions: 0o600])
            else {
                throw CommandError(.file, "cannot create log file '\(file)'")
            }
            guard let handle = FileHandle(forWritingAtPath: path) else {
                throw CommandError(.file, "cannot write to log file '\(file)'")
            }
            try? handle.close()
            executor.session.settings.logFile = path
        } else {
            executor.session.settings.logFile = nil
        }
        executor.session.settings.logDetail = detail
        return .done
    }
}
