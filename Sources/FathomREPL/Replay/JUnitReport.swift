import FathomHTTP
import Foundation

/// A replay as JUnit XML, the format CI servers read: a test suite per file, a test case per
/// request (and one for setup lines that failed), a failure element for each failed one.
enum JUnitReport {
    static func xml(_ reports: [FileReport], elapsed: Duration) -> String {
        let cases = reports.flatMap(\.requests)
        let failures = cases.filter { !$0.passed }.count
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml +=
            "<testsuites name=\"fathom replay\" tests=\"\(cases.count)\" failures=\"\(failures)\" errors=\"0\" time=\"\(seconds(elapsed))\">\n"
        for report in reports {
            let suiteFailures = report.requests.filter { !$0.passed }.count
            let suiteTime = report.requests.reduce(Duration.zero) { $0 + ($1.time ?? .zero) }
            xml +=
                "  <testsuite name=\"\(escape(report.path))\" tests=\"\(report.requests.count)\" failures=\"\(suiteFailures)\" errors=\"0\" time=\"\(seconds(suiteTime))\">\n"
            for request in report.requests {
                let name = request.isSetup ? "setup" : request.name
                let status = request.status.map { " → \($0.code)" } ?? ""
                xml +=
                    "    <testcase classname=\"\(escape(report.path))\" name=\"\(escape("\(name)\(status) (line \(request.line))"))\" time=\"\(seconds(request.time ?? .zero))\""
                if request.passed {
                    xml += "/>\n"
                    continue
                }
                let texts = request.failures.map { ReplayRenderer.text(of: $0, redactor: report.redactor) }
                let message = texts.first?.split(separator: "\n").first.map(String.init) ?? "failed"
                xml += ">\n"
                xml +=
                    "      <failure message=\"\(escape(message))\" type=\"\(request.failedExpectations > 0 ? "expectation" : "failure")\">"
                xml += escape(texts.joined(separator: "\n"))
                xml += "</failure>\n    </testcase>\n"
            }
            xml += "  </testsuite>\n"
        }
        xml += "</testsuites>\n"
        return xml
    }

    static func seconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        return String(format: "%.3f", Double(seconds) + Double(attoseconds) / 1e18)
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
