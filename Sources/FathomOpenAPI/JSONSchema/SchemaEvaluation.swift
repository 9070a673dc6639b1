import FathomJSON
import Foundation

/// What a schema evaluated in an instance: whether it is valid, and (for 2020-12's
/// `unevaluatedProperties`/`unevaluatedItems`) which properties and items it looked at.
struct Annotations {
    var valid: Bool
    var properties: Set<String> = []
    var allItems = false
    var items: Set<Int> = []

    static let invalid = Annotations(valid: false)

    /// Takes in what a valid in-place subschema evaluated.
    mutating func absorb(_ other: Annotations) {
        guard other.valid else { return }
        properties.formUnion(other.properties)
        allItems = allItems || other.allItems
        items.formUnion(other.items)
    }
}

/// One validation run: walks a schema over an instance, keyword by keyword, collecting violations
/// (or, when not collecting, stopping at the first).
struct SchemaEvaluation {
    let validator: SchemaValidator
    let collect: Bool
    var violations: [SchemaViolation] = []

    init(validator: SchemaValidator, collect: Bool) {
        self.validator = validator
        self.collect = collect
    }

    var registry: SchemaRegistry { validator.registry }
    var dialect: SchemaDialect { registry.dialect }
    private static let maxDepth = 256

    // MARK: - Evaluating

    mutating func evaluate(
        _ schema: JSON, base: String, instance: JSON, path: InstancePath, scope: [String], depth: Int
    ) -> Annotations {
        switch schema {
        case .bool(true): return Annotations(valid: true)
        case .bool(false):
            report(path, "no value is allowed here")
            return .invalid
        case .object: break
        default: return Annotations(valid: true)
        }
        guard depth < Self.maxDepth else {
            report(path, "the schema refers to itself without end")
            return .invalid
        }
        var base = base
        var scope = scope
        if dialect == .draft2020_12, case .string(let id)? = schema["$id"] {
            base = SchemaURI.stripFragment(SchemaURI.resolve(id, against: base))
            scope.append(base)
        } else if dialect == .draft4, schema["$ref"] == nil, case .string(let id)? = schema["id"], !id.hasPrefix("#") {
            base = SchemaURI.stripFragment(SchemaURI.resolve(id, against: base))
            scope.append(base)
        }
        var result = Annotations(valid: true)
        func failed() -> Bool { !result.valid && !collect }

        // References.
        if case .string(let reference)? = schema["$ref"] {
            guard let target = registry.resolve(reference, base: base) else {
                report(path, "the schema's $ref '\(reference)' names nothing this description holds")
                return .invalid
            }
            let outcome = evaluate(
                target.schema, base: target.base, instance: instance, path: path, scope: entering(target, scope),
                depth: depth + 1)
            if dialect.refOverridesSiblings { return outcome }
            if !outcome.valid { result.valid = false } else { result.absorb(outcome) }
            if failed() { return result }
        }
        if dialect == .draft2020_12, case .string(let reference)? = schema["$dynamicRef"] {
            guard let target = dynamicTarget(reference, base: base, scope: scope) else {
                report(path, "the schema's $dynamicRef '\(reference)' names nothing this description holds")
                return .invalid
            }
            let outcome = evaluate(
                target.schema, base: target.base, instance: instance, path: path, scope: entering(target, scope),
                depth: depth + 1)
            if !outcome.valid { result.valid = false } else { result.absorb(outcome) }
            if failed() { return result }
        }

        // OpenAPI 3.0: `nullable: true` lets null through whatever else the schema says.
        if dialect == .openAPI30, instance == .null, schema["nullable"] == .bool(true) { return result }

        checkType(schema, instance, path, &result)
        checkEnumAndConst(schema, instance, path, &result)
        if failed() { return result }

        switch instance {
        case .number(let text): checkNumber(schema, text, path, &result)
        case .string(let text): checkString(schema, text, path, &result)
        case .array(let elements):
            checkArray(schema, elements, base: base, path: path, scope: scope, depth: depth, &result)
        case .object(let members):
            checkObject(schema, members, base: base, path: path, scope: scope, depth: depth, &result)
        default: break
        }
        if failed() { return result }

        applyInPlace(schema, instance, base: base, path: path, scope: scope, depth: depth, &result)
        if failed() { return result }

        if dialect == .draft2020_12 {
            checkUnevaluated(schema, instance, base: base, path: path, scope: scope, depth: depth, &result)
        }
        return result
    }

    /// The dynamic scope after a reference to `target`: a reference into another resource enters it, even at a
    /// subschema (`first#/$defs/stuff`).
    ///
    /// A target with its own `$id` is entered by ``evaluate(_:base:instance:path:scope:depth:)``, and the resource
    /// around it is not.
    private func entering(_ target: LocatedSchema, _ scope: [String]) -> [String] {
        guard dialect == .draft2020_12, target.schema["$id"] == nil, scope.last != target.base else { return scope }
        return scope + [target.base]
    }

    /// `$dynamicRef`: resolved as `$ref`; when that lands on a `$dynamicAnchor` of the same name,
    /// the outermost resource in the dynamic scope that declares one wins.
    private func dynamicTarget(_ reference: String, base: String, scope: [String]) -> LocatedSchema? {
        guard let initial = registry.resolve(reference, base: base) else { return nil }
        let (_, fragment) = SchemaURI.split(SchemaURI.resolve(reference, against: base))
        guard let name = fragment, !name.isEmpty, !name.hasPrefix("/"),
            initial.schema["$dynamicAnchor"] == .string(name)
        else { return initial }
        for resource in scope where registry.hasDynamicAnchor(name, in: resource) {
            if let found = registry.resolve("#" + name, base: resource) { return found }
        }
        return initial
    }

    // MARK: - Keywords for any instance

    private mutating func checkType(_ schema: JSON, _ instance: JSON, _ path: InstancePath, _ result: inout Annotations)
    {
        let nullable = dialect == .openAPI30 && schema["nullable"] == .bool(true)
        switch schema["type"] {
        case .string(let name)?:
            if !Self.instance(instance, hasType: name) {
                fail(&result, path, "expected \(name)\(nullable ? " or null" : ""), got \(Self.kind(of: instance))")
            }
        case .array(let names)?:
            let types = names.compactMap(\.string)
            if !types.contains(where: { Self.instance(instance, hasType: $0) }) {
                fail(&result, path, "expected \(types.joined(separator: " or ")), got \(Self.kind(of: instance))")
            }
        default: break
        }
    }

    private mutating func checkEnumAndConst(
        _ schema: JSON, _ instance: JSON, _ path: InstancePath, _ result: inout Annotations
    ) {
        if case .array(let allowed)? = schema["enum"], !allowed.contains(where: { $0.isEquivalent(to: instance) }) {
            let shown = allowed.prefix(6).map(Self.short).joined(separator: ", ") + (allowed.count > 6 ? ", …" : "")
            fail(&result, path, "expected one of \(shown), got \(Self.short(instance))")
        }
        if let constant = schema["const"], !constant.isEquivalent(to: instance) {
            fail(&result, path, "expected \(Self.short(constant)), got \(Self.short(instance))")
        }
    }

    // MARK: - Helpers

    mutating func fail(_ result: inout Annotations, _ path: InstancePath, _ message: @autoclosure () -> String) {
        result.valid = false
        report(path, message())
    }

    mutating func report(_ path: InstancePath, _ message: @autoclosure () -> String) {
        if collect { violations.append(SchemaViolation(path: path.text, message: message())) }
    }

    static func instance(_ instance: JSON, hasType name: String) -> Bool {
        switch (name, instance) {
        case ("null", .null), ("boolean", .bool), ("string", .string), ("array", .array), ("object", .object),
            ("number", .number):
            return true
        case ("integer", .number(let text)): return isIntegral(text)
        default: return false
        }
    }

    /// `1`, `1.0` and `1e3` are integers; `1.5` is not.
    static func isIntegral(_ text: String) -> Bool {
        if !text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) { return true }
        if let decimal = Decimal(string: text), decimal.isFinite, abs(decimal.exponent) < 100 {
            var value = decimal
            var rounded = Decimal()
            NSDecimalRound(&rounded, &value, 0, .plain)
            return rounded == value
        }
        guard let value = Double(text) else { return false }
        return value.rounded() == value
    }

    static func kind(of instance: JSON) -> String {
        if case .number(let text) = instance, isIntegral(text) { return "integer \(text)" }
        switch instance {
        case .null: return "null"
        case .number(let text): return "number \(text)"
        case .string: return "string"
        case .bool(let flag): return "boolean \(flag)"
        default: return instance.kindName
        }
    }

    static func integer(_ value: JSON?) -> Int? {
        guard case .number(let text)? = value, let number = Double(text), number >= 0 else { return nil }
        return number > Double(Int.max / 2) ? Int.max / 2 : Int(number)
    }

    /// A value shown in a message: short, one line.
    static func short(_ value: JSON) -> String {
        var text = value.formatted(.compactText)
        if text.hasSuffix("\n") { text.removeLast() }
        return text.count > 60 ? String(text.prefix(57)) + "…" : text
    }
}

/// Compiled `pattern`s, shared: a schema's patterns are compiled once, however many values they check.
final class PatternCache: @unchecked Sendable {
    static let shared = PatternCache()
    private let lock = NSLock()
    private var compiled: [String: NSRegularExpression?] = [:]

    /// An ECMA-262 pattern as an ICU regular expression that means the same (``ECMAPattern``);
    /// `nil` when it does not compile.
    func regex(_ pattern: String) -> NSRegularExpression? {
        lock.lock()
        defer { lock.unlock() }
        if let known = compiled[pattern] { return known }
        let regex = try? NSRegularExpression(pattern: ECMAPattern.icu(pattern))
        compiled[pattern] = regex
        return regex
    }
}
