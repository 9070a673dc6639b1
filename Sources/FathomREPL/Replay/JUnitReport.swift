import FathomHTTP
import Foundation

/// A replay as JUnit XML, the format CI servers read: a test suite per file, a test case per
/// request, named from the file as written so that a green run and a red one list the same
/// tests.
///
/// A failed check (an expectation, a comparison with the recording, the description's schema) is
/// a `<failure>`; a runtime error (no answer, a missing secret, an interrupted run) an `<error>`;
/// a request that did not run `<skipped>`; a file that could not be run one `<error>`. The
/// class name is the file's path with `/` as `.` and no extension (`tests.api.01-auth`), so a
/// CI tool that splits class names at dots sees folders as packages.
///
/// Valid by Jenkins xunit's `junit-10.xsd`, which xUnit validates input against, and by Ant's
/// `JUnit.xsd` in all it can say: each suite has its `id`, `package`, `timestamp` and `hostname`,
/// a `<properties>` first and `<system-out>`/`<system-err>` last. Ant's schema has no way to say
/// a test was skipped, nor a test case's own output: the `skipped` count, `<skipped>` and a test
/// case's `<system-out>` are junit-10's (and what Jenkins, GitLab and GitHub's reporters read).
/// `JUnitSchemaTests` holds both schemas' rules.
enum JUnitReport {
    /// - Parameters:
    ///   - started: When the run began: each suite's `timestamp` (ISO 8601, no zone, as Ant's
    ///     schema has it).
    ///   - hostname: Each suite's `hostname`.
    static func xml(
        _ summary: ReplaySummary, started: Date? = nil, hostname: String = ProcessInfo.processInfo.hostName
    ) -> String {
        let start = started ?? Date(timeIntervalSinceNow: -summary.elapsed.seconds)
        let stamp = Self.timestamp(start)
        let host = hostname.isEmpty ? "localhost" : hostname
        let cases = summary.files.reduce(0) { $0 + max($1.requests.count, $1.problem == nil ? 0 : 1) }
        let failures = summary.requests.filter(\.failed).count
        let errors = summary.erroredRequests + summary.files.filter { $0.problem != nil }.count
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        // No `skipped` here: Jenkins xunit's junit-10.xsd (which it validates reports against)
        // allows it on each <testsuite> only, where it is.
        xml +=
            "<testsuites name=\"fathom replay\" tests=\"\(cases)\" failures=\"\(failures)\" errors=\"\(errors)\" time=\"\(seconds(summary.elapsed))\">\n"
        for (id, file) in summary.files.enumerated() {
            xml += suite(file, id: id, timestamp: stamp, hostname: host)
        }
        xml += "</testsuites>\n"
        return xml
    }

    private static func suite(_ file: FileReport, id: Int, timestamp: String, hostname: String) -> String {
        let className = escape(className(file.path))
        let name = escape(file.path)
        // Ant's schema: the suite's package (its class name's folders), its number, when and
        // where it ran; <properties> first, the suite's output last.
        let package = className.split(separator: ".").dropLast().joined(separator: ".")
        let identity =
            "id=\"\(id)\" package=\"\(package.isEmpty ? className : package)\" timestamp=\"\(timestamp)\" hostname=\"\(escape(hostname))\""
        let end = "    <system-out/>\n    <system-err/>\n  </testsuite>\n"
        if let problem = file.problem {
            let message = escape(problem.split(separator: "\n").first.map(String.init) ?? problem)
            return """
                  <testsuite name="\(name)" tests="1" failures="0" errors="1" skipped="0" time="0.000" \(identity)>
                    <properties/>
                    <testcase classname="\(className)" name="file check" time="0.000">
                      <error message="\(message)" type="file">\(escape(problem))</error>
                    </testcase>

                """ + end
        }
        let requests = file.requests
        let time = requests.reduce(Duration.zero) { $0 + ($1.time ?? .zero) }
        var xml =
            "  <testsuite name=\"\(name)\" tests=\"\(requests.count)\" failures=\"\(requests.filter(\.failed).count)\" errors=\"\(requests.filter(\.errored).count)\" skipped=\"\(requests.filter { $0.skipped != nil }.count)\" time=\"\(seconds(time))\" \(identity)>\n    <properties/>\n"
        for request in requests {
            xml +=
                "    <testcase classname=\"\(className)\" name=\"\(escape(request.name))\" time=\"\(seconds(request.time ?? .zero))\""
            var body = ""
            if let reason = request.skipped {
                body += "      <skipped message=\"\(escape(reason))\"/>\n"
            } else if !request.failures.isEmpty {
                let texts = request.failures.map { ReplayRenderer.text(of: $0, redactor: file.redactor) }
                var message = texts.first?.split(separator: "\n").first.map(String.init) ?? "failed"
                // Every failure names its place, as an expectation's does: a reporter annotates
                // FILE:LINE (a recording's differences and a schema's violations carry none).
                let place = "\(file.path):\(request.line)"
                if !request.errored, !message.hasPrefix(place) { message = "\(place): " + message }
                let element = request.errored ? "error" : "failure"
                body +=
                    "      <\(element) message=\"\(escape(message))\" type=\"\(kind(of: request))\">"
                    + escape(texts.joined(separator: "\n")) + "</\(element)>\n"
            }
            let said = request.notes + (request.sent.map { ["sent \($0)"] } ?? [])
            if !said.isEmpty {
                body +=
                    "      <system-out>\(escape(said.map(file.redactor.redact).joined(separator: "\n")))</system-out>\n"
            }
            xml += body.isEmpty ? "/>\n" : ">\n" + body + "    </testcase>\n"
        }
        return xml + end
    }

    /// `2026-11-27T21:54:02`: ISO 8601 in UTC, with no zone, as Ant's schema has it.
    static func timestamp(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d", c.year ?? 1970, c.month ?? 1, c.day ?? 1, c.hour ?? 0,
            c.minute ?? 0, c.second ?? 0)
    }

    /// What kind of failure a failed request's is: `runtime`, `expectation`, `recording` or `schema`.
    private static func kind(of request: RequestReport) -> String {
        if request.errored { return "runtime" }
        for failure in request.failures {
            switch failure {
            case .recording: return "recording"
            case .schema: return "schema"
            case .output(.expectation): return "expectation"
            default: continue
            }
        }
        return "failure"
    }

    /// `tests/api/01-auth.fathom` → `tests.api.01-auth`: folders as packages, the file as the
    /// class, dots inside a name as `_` so no tool splits there.
    static func className(_ path: String) -> String {
        var components = path.split(separator: "/").map(String.init).filter { $0 != "." }
        if var last = components.popLast() {
            for suffix in [".fathom", ".har"] where last.lowercased().hasSuffix(suffix) {
                last = String(last.dropLast(suffix.count))
            }
            components.append(last)
        }
        return components.map { $0.replacingOccurrences(of: ".", with: "_") }.joined(separator: ".")
    }

    static func seconds(_ duration: Duration) -> String {
        String(format: "%.3f", duration.seconds)
    }

    /// Text as XML attribute or element content; characters XML 1.0 forbids are dropped.
    static func escape(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            case "\n": result += "&#10;"
            case "\t", "\r": result.unicodeScalars.append(scalar)
            case let c where c.value < 0x20 || c.value == 0xFFFE || c.value == 0xFFFF: continue
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
