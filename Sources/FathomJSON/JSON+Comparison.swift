extension JSON {
    /// Equality as JSON means it: numbers by value (`1.0` equals `1`, `-0` equals `0`, exactly, with
    /// no rounding through `Double`), objects regardless of member order.
    public func isEquivalent(to other: JSON) -> Bool {
        switch (self, other) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        // Code point by code point: Swift compares strings by canonical equivalence, JSON does not.
        case (.string(let a), .string(let b)): return a.unicodeScalars.elementsEqual(b.unicodeScalars)
        case (.number(let a), .number(let b)): return DecimalText(a) == DecimalText(b)
        case (.array(let a), .array(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.isEquivalent(to: $1) }
        case (.object(let a), .object(let b)):
            guard a.count == b.count else { return false }
            return a.allSatisfy { member in
                b.contains { $0.key == member.key && $0.value.isEquivalent(to: member.value) }
            }
        default: return false
        }
    }
}

/// A number's exact value, from its JSON text: sign, significant digits and a decimal exponent
/// (value = 0.digits × 10^exponent). Compares exactly, however large or precise the number.
struct DecimalText: Comparable {
    let negative: Bool
    let digits: [UInt8]
    let exponent: Int

    init(_ text: String) {
        var bytes = Array(text.utf8)[...]
        let negative = bytes.first == UInt8(ascii: "-")
        if negative { bytes = bytes.dropFirst() }
        var integer: [UInt8] = []
        var fraction: [UInt8] = []
        var exponent = 0
        var part = 0
        var exponentNegative = false
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "."): part = 1
            case UInt8(ascii: "e"), UInt8(ascii: "E"): part = 2
            case UInt8(ascii: "-") where part == 2: exponentNegative = true
            case UInt8(ascii: "+"): break
            default:
                let digit = byte &- UInt8(ascii: "0")
                switch part {
                case 0: integer.append(digit)
                case 1: fraction.append(digit)
                default: exponent = min(exponent &* 10 &+ Int(digit), 1 << 40)
                }
            }
        }
        var digits = integer + fraction
        var scale = (exponentNegative ? -exponent : exponent) + integer.count
        while let first = digits.first, first == 0 {
            digits.removeFirst()
            scale -= 1
        }
        while let last = digits.last, last == 0 { digits.removeLast() }
        self.digits = digits
        self.negative = digits.isEmpty ? false : negative
        self.exponent = digits.isEmpty ? 0 : scale
    }

    static func < (lhs: DecimalText, rhs: DecimalText) -> Bool {
        if lhs.negative != rhs.negative { return lhs.negative }
        let magnitudeLess = Self.magnitudeLess(lhs, rhs)
        let magnitudeGreater = Self.magnitudeLess(rhs, lhs)
        return lhs.negative ? magnitudeGreater : magnitudeLess
    }

    private static func magnitudeLess(_ a: DecimalText, _ b: DecimalText) -> Bool {
        if a.digits.isEmpty || b.digits.isEmpty { return a.digits.isEmpty && !b.digits.isEmpty }
        if a.exponent != b.exponent { return a.exponent < b.exponent }
        return a.digits.lexicographicallyPrecedes(b.digits)
    }
}

extension JSON {
    /// Order as RFC 9535 comparisons define it: numbers by exact value, strings by Unicode scalar
    /// values. `nil` when the two are not both numbers or both strings.
    public func isLess(than other: JSON) -> Bool? {
        switch (self, other) {
        case (.number(let a), .number(let b)): DecimalText(a) < DecimalText(b)
        case (.string(let a), .string(let b)):
            a.unicodeScalars.lexicographicallyPrecedes(b.unicodeScalars) { $0.value < $1.value }
        default: nil
        }
    }
}
