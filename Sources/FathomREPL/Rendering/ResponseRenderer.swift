import FathomGraphQL
@_spi(Fathom) import FathomHTTP
import FathomJSON
import FathomOpenAPI
import Foundation

/// Turns a response (status line, headers, body) into text. Secrets are masked by the
/// ``OutputRenderer`` on the whole text, so that nothing rendered here can carry one out.
struct ResponseRenderer {
    let palette: Palette
    let decoder: DecoderMode
    let showHeaders: Bool
    let redactor: Redactor

    /// The status line: status, protocol, times, size, number, and the schema check.
    func statusLine(
        _ response: NetworkResponse<Data>, label: String, schema: SchemaCheck? = nil, grpc: GRPCCallRecord? = nil
    ) -> String {
        let timing = response.timing
        let status =
            grpc.map { call in
                "gRPC " + (call.status.isOK ? palette.green(call.status.codeName) : palette.red(call.status.codeName))
            } ?? "\(response.httpVersion) \(palette.status(response.status))"
        var parts = [
            status,
            "\(timing.total.shortDescription) (first byte \(timing.firstByte.shortDescription))",
            ByteCount.format(response.body.count),
        ]
        if !response.redirects.isEmpty {
            parts.append("\(response.redirects.count) redirect\(response.redirects.count == 1 ? "" : "s")")
        }
        parts.append(palette.bold(label))
        if let schema {
            parts.append(
                schema.passed ? palette.green("schema ✓") : palette.red("schema ✗ \(schema.violations.count)"))
        }
        return parts.joined(separator: palette.dim(" · "))
    }

    /// The most violations listed under a status line; `expect schema` and `--output json` list all.
    static let violationsShown = 20

    /// Each violation under the status line: where, and what was expected there.
    func violations(_ schema: SchemaCheck) -> String {
        var text = ""
        for violation in schema.violations.prefix(Self.violationsShown) {
            text += palette.red("  ✗ \(violation.path)") + ": \(violation.message)\n"
        }
        if schema.violations.count > Self.violationsShown {
            text +=
                palette.dim(
                    "  … \(schema.violations.count - Self.violationsShown) more (`expect schema` lists them all)")
                + "\n"
        }
        return text
    }

    /// A GraphQL response's errors under the status line: the message, the response path it
    /// names, where in the operation. A server's text, so shown as text, never as terminal codes.
    func errors(_ errors: [GraphQLResponseError]) -> String {
        var text = ""
        for error in errors.prefix(Self.violationsShown) {
            var place: [String] = []
            if let path = error.path, !path.isEmpty { place.append("at " + path) }
            if !error.locations.isEmpty { place.append(error.locations.joined(separator: ", ")) }
            // One line each: a message's own line breaks are blanks here (the body shows it whole).
            let flat = error.message.split(whereSeparator: \.isNewline).joined(separator: " ")
            let message = TerminalText.visible(ErrorRenderer.cut(redactor.redact(flat)))
            text += palette.red("  ✗ error") + ": \(message)"
            text +=
                place.isEmpty
                ? "\n" : palette.dim(" (" + TerminalText.visible(place.joined(separator: "; ")) + ")") + "\n"
        }
        if errors.count > Self.violationsShown {
            text += palette.dim("  … \(errors.count - Self.violationsShown) more errors in the body") + "\n"
        }
        return text
    }

    /// The whole response: status line, headers, a one-line error summary, the body.
    func render(
        _ response: NetworkResponse<Data>, label: String, schema: SchemaCheck? = nil,
        graphQLErrors: [GraphQLResponseError] = [], grpc: GRPCCallRecord? = nil
    ) -> String {
        var text = statusLine(response, label: label, schema: schema, grpc: grpc)
        if !graphQLErrors.isEmpty {
            text += palette.dim(" · ") + palette.red("errors \(graphQLErrors.count)")
        }
        text += "\n"
        if let schema { text += violations(schema) }
        if let grpc { text += grpcStatus(grpc) }
        text += errors(graphQLErrors)
        if showHeaders {
            for field in redactor.redact(response.headers) {
                text += palette.dim("\(field.name.rawName): \(field.value)") + "\n"
            }
        }
        if response.status.code >= 400, let message = ErrorMessage.extract(from: response) {
            text += palette.red("✗ \(message)") + "\n"
        }
        let body = renderBody(response.body, contentType: response.contentType, label: label)
        if !body.isEmpty {
            if showHeaders { text += "\n" }
            text += body
            if !body.hasSuffix("\n") { text += "\n" }
        }
        return text
    }

    /// A gRPC call's status message and details (when it failed), and its trailers with the
    /// headers (`show headers`): under the status line, masked.
    func grpcStatus(_ call: GRPCCallRecord) -> String {
        var text = ""
        if !call.status.isOK, !call.status.message.isEmpty {
            let flat = call.status.message.split(whereSeparator: \.isNewline).joined(separator: " ")
            text += palette.red("✗ " + TerminalText.visible(ErrorRenderer.cut(redactor.redact(flat)))) + "\n"
        }
        if case .array(let details)? = call.details?["details"] {
            for detail in details {
                let shown = detail.formatted(.compactText).trimmingCharacters(in: .newlines)
                text += palette.yellow("  detail ") + TerminalText.visible(redactor.redact(shown)) + "\n"
            }
        }
        if showHeaders {
            for field in redactor.redact(call.trailers) {
                text += palette.dim("trailer \(field.name.rawName): \(field.value)") + "\n"
            }
        }
        return text
    }

    /// The most text a body is shown as: past it the body is cut, with a note saying how to see
    /// it whole. A megabyte nested 400 deep prints as hundreds of megabytes of indentation.
    static let displayLimit = 4 << 20

    /// A body as the decoder setting asks: JSON pretty and colored, text, or a hexdump, cut at
    /// ``displayLimit`` (`label`, `#3` or `@12`, when known, names it in the note).
    func renderBody(_ body: Data, contentType: String?, label: String? = nil) -> String {
        guard !body.isEmpty else { return "" }
        let (text, complete) = renderWhole(body, contentType: contentType)
        guard !complete else { return text }
        let how = label.map { "`show \($0) > FILE` writes it whole" } ?? "`decoder raw` shows it unformatted"
        return text + palette.dim("… cut at \(ByteCount.format(Self.displayLimit)) of output: \(how)") + "\n"
    }

    private func renderWhole(_ body: Data, contentType: String?) -> (String, complete: Bool) {
        let limit = Self.displayLimit
        switch decoder {
        // Asked for as it is: the one body that reaches the terminal untouched.
        case .raw:
            let (text, complete) = Self.cut(String(decoding: body, as: UTF8.self))
            return (TerminalText.verbatim(text), complete)
        // Masked before it is laid out in rows: a secret split across two rows is still masked.
        case .hex:
            let masked = redactor.redact(bytes: body)
            // A row of 16 bytes takes 79 characters.
            let rows = limit / 79
            return (HexDump.render(masked, limit: min(masked.count, rows * 16)), masked.count <= rows * 16)
        case .json:
            do {
                let (text, complete) = try JSONFormatter.formatted(body, as: palette.json, limit: limit)
                return (TerminalText.adopting(text), complete)
            } catch {
                let text = BodyText.decode(body, contentType: contentType) ?? ""
                return Self.cut(palette.red("body is not JSON: \(error.summary)") + "\n" + text)
            }
        case .text:
            return Self.cut(
                Self.lines(BodyText.decode(body, contentType: contentType) ?? String(decoding: body, as: UTF8.self)))
        case .auto:
            if MediaType.isJSON(contentType) || (contentType == nil && BodyText.startsLikeJSON(body)) {
                if let (text, complete) = try? JSONFormatter.formatted(
                    body, as: palette.json, options: .lenient, limit: limit)
                {
                    return (TerminalText.adopting(text), complete)
                }
            }
            if let text = BodyText.decode(body, contentType: contentType),
                BodyText.isTextual(contentType) || BodyText.looksLikeText(text)
            {
                return Self.cut(Self.lines(text))
            }
            return (binarySummary(body, contentType: contentType), true)
        }
    }

    /// Text with CRLF line ends as LF: a CR left over would show as the control character it is.
    static func lines(_ text: String) -> String {
        text.utf8.contains(0x0D) ? text.replacingOccurrences(of: "\r\n", with: "\n") : text
    }

    /// `text` cut at the display limit, at a line break where there is one.
    static func cut(_ text: String) -> (String, complete: Bool) {
        guard text.utf8.count > displayLimit else { return (text, true) }
        var end = text.utf8.index(text.utf8.startIndex, offsetBy: displayLimit)
        while end > text.startIndex, text.utf8[text.utf8.index(before: end)] != UInt8(ascii: "\n") {
            end = text.utf8.index(before: end)
        }
        if end == text.startIndex { end = text.utf8.index(text.utf8.startIndex, offsetBy: displayLimit) }
        return (String(decoding: text.utf8[..<end], as: UTF8.self) + "\n", false)
    }

    func binarySummary(_ body: Data, contentType: String?) -> String {
        let header = palette.dim("binary body, \(ByteCount.format(body.count)), \(contentType ?? "no content type")")
        return header + "\n" + HexDump.render(redactor.redact(bytes: body), limit: 256)
            + palette.dim("(`decoder hex` shows it all)") + "\n"
    }
}

/// `00000000  89 50 4e 47 0d 0a 1a 0a  00 00 00 0d 49 48 44 52  |.PNG........IHDR|`
enum HexDump {
    static func render(_ data: Data, limit: Int) -> String {
        var text = ""
        let shown = data.prefix(limit)
        var offset = 0
        let bytes = Array(shown)
        while offset < bytes.count {
            let row = bytes[offset..<min(offset + 16, bytes.count)]
            var hex = ""
            for (index, byte) in row.enumerated() {
                hex += String(format: "%02x ", byte)
                if index == 7 { hex += " " }
            }
            hex = hex.padding(toLength: 49, withPad: " ", startingAt: 0)
            let ascii = String(row.map { (0x20..<0x7F).contains($0) ? Character(UnicodeScalar($0)) : "." })
            text += String(format: "%08x  ", offset) + hex + " |" + ascii + "|\n"
            offset += 16
        }
        if data.count > limit {
            text += "… \(data.count - limit) more bytes\n"
        }
        return text
    }
}
