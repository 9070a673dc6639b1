import Foundation

/// A CSV file as RFC 4180 writes it: a header row naming the columns, then rows of values;
/// quoted values may hold commas, quotes (doubled) and line breaks. `send --data FILE` sends one
/// request per row, each column a `{{name}}`.
struct CSVTable: Equatable, Sendable {
    var columns: [String]
    var rows: [[String]]

    /// The values of row `index` by column name.
    func row(_ index: Int) -> [String: String] {
        var values: [String: String] = [:]
        for (column, value) in zip(columns, rows[index]) { values[column] = value }
        return values
    }

    /// The table in `text`.
    ///
    /// - Throws: ``CommandError`` for no header, an unclosed quote, or a row whose count of
    ///   values differs from the header's (with its line).
    init(parsing text: String, source: String) throws(CommandError) {
        var records: [(line: Int, values: [String])] = []
        var values: [String] = []
        var value = ""
        var quoted = false
        var afterQuote = false
        var line = 1
        var recordLine = 1
        var quoteLine = 1
        var scalars = text.unicodeScalars.makeIterator()
        var pending = scalars.next()
        if pending == "\u{FEFF}" { pending = scalars.next() }
        func endRecord() {
            values.append(value)
            value = ""
            // A blank line is no record.
            if !(values.count == 1 && values[0].isEmpty) { records.append((recordLine, values)) }
            values = []
        }
        while let scalar = pending {
            pending = scalars.next()
            if quoted {
                if scalar == "\"" {
                    if pending == "\"" {
                        value.unicodeScalars.append("\"")
                        pending = scalars.next()
                    } else {
                        quoted = false
                        afterQuote = true
                    }
                } else {
                    if scalar == "\n" { line += 1 }
                    value.unicodeScalars.append(scalar)
                }
                continue
            }
            switch scalar {
            case "\"" where value.isEmpty && !afterQuote:
                quoted = true
                quoteLine = line
            case ",":
                values.append(value)
                value = ""
                afterQuote = false
            case "\r" where pending == "\n":
                continue
            case "\n", "\r":
                endRecord()
                afterQuote = false
                line += 1
                recordLine = line
            default:
                value.unicodeScalars.append(scalar)
            }
        }
        if quoted {
            throw CommandError(
                .file, "\(source):\(quoteLine): a quoted value is never closed", hint: "close it with \"")
        }
        if !value.isEmpty || !values.isEmpty { endRecord() }
        guard let header = records.first else {
            throw CommandError(.file, "\(source) has no header row", hint: "its first line names the columns: id,name")
        }
        columns = header.values.map { $0.trimmingBlanksAround }
        if let empty = columns.firstIndex(where: \.isEmpty) {
            throw CommandError(.file, "\(source):1: column \(empty + 1) has no name")
        }
        rows = []
        for record in records.dropFirst() {
            guard record.values.count == columns.count else {
                throw CommandError(
                    .file, "\(source):\(record.line): \(record.values.count) values for \(columns.count) columns",
                    hint: "quote a value that holds a comma: \"a, b\"")
            }
            rows.append(record.values)
        }
        guard !rows.isEmpty else { throw CommandError(.file, "\(source) has a header and no rows") }
    }
}
