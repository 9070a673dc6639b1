import Foundation

/// The process's environment variables, read once.
///
/// `ProcessInfo.processInfo.environment` builds a new dictionary through Foundation at every
/// read, and a session's start read it eight times (the config, the `.env`, the archive, the
/// proxies, the console…): a tenth of the time to the first prompt. Fathom never changes its own
/// environment, so one snapshot, taken at its first use, serves them all; a program that sets a
/// variable later passes its own dictionary where one is taken (`ProxySettings.from(environment:)`).
public enum ProcessEnvironment {
    /// Every variable, by name (split at its first `=`; of a name given twice, the last).
    public static let current: [String: String] = {
        #if canImport(Darwin)
            guard let entries = _NSGetEnviron()?.pointee else { return [:] }
        #else
            // `environ` is null after a `clearenv()`.
            let first: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = environ
            guard let entries = first else { return [:] }
        #endif
        return variables(in: entries)
    }()

    /// The variables of a null-terminated list of `NAME=value` strings, as `environ` holds them.
    static func variables(in entries: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> [String: String] {
        var values: [String: String] = [:]
        var entry = entries
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.utf8.firstIndex(of: UInt8(ascii: "=")) {
                values[String(text[..<equals])] = String(text[text.utf8.index(after: equals)...])
            }
            entry += 1
        }
        return values
    }
}
