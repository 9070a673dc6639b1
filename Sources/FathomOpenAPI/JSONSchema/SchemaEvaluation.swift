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

    private var registry: SchemaRegistry { validator.registry }
    private var dialect: SchemaDialect { registry.dialect }
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
                target.schema, base: target.base, instance: instance, path: path, scope: scope, depth: depth + 1)
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
                target.schema, base: target.base, instance: instance, path: path, scope: scope, depth: depth + 1)
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

    // MARK: - Numbers

    private mutating func checkNumber(_ schema: JSON, _ text: String, _ path: InstancePath, _ result: inout Annotations)
    {
        let value = JSON.number(text)
        func less(_ a: JSON, _ b: JSON) -> Bool { a.isLess(than: b) ?? false }
        if case .number(let bound)? = schema["minimum"] {
            let exclusive = schema["exclusiveMinimum"] == .bool(true)
            if exclusive ? !less(.number(bound), value) : less(value, .number(bound)) {
                fail(&result, path, "expected \(exclusive ? ">" : "≥") \(bound), got \(text)")
            }
        }
        if case .number(let bound)? = schema["maximum"] {
            let exclusive = schema["exclusiveMaximum"] == .bool(true)
            if exclusive ? !less(value, .number(bound)) : less(.number(bound), value) {
                fail(&result, path, "expected \(exclusive ? "<" : "≤") \(bound), got \(text)")
            }
        }
        if case .number(let bound)? = schema["exclusiveMinimum"], !less(.number(bound), value) {
            fail(&result, path, "expected > \(bound), got \(text)")
        }
        if case .number(let bound)? = schema["exclusiveMaximum"], !less(value, .number(bound)) {
            fail(&result, path, "expected < \(bound), got \(text)")
        }
        if case .number(let divisor)? = schema["multipleOf"], !Self.isMultiple(text, of: divisor) {
            fail(&result, path, "expected a multiple of \(divisor), got \(text)")
        }
        if validator.options.assertFormats, case .string(let format)? = schema["format"],
            let problem = SchemaFormats.checkNumber(text, format: format)
        {
            fail(&result, path, problem)
        }
    }

    /// Exact for decimals (`19.99` is a multiple of `0.01`); through `Double` when a value is
    /// beyond `Decimal`'s range, where an infinite quotient is no multiple.
    static func isMultiple(_ text: String, of divisor: String) -> Bool {
        if let value = Decimal(string: text), let step = Decimal(string: divisor), !step.isZero,
            value.isFinite, step.isFinite, abs(value.exponent) < 100, abs(step.exponent) < 100
        {
            var quotient = value / step
            var rounded = Decimal()
            NSDecimalRound(&rounded, &quotient, 0, .plain)
            return rounded == quotient
        }
        guard let value = Double(text), let step = Double(divisor), step != 0 else { return true }
        let quotient = value / step
        return quotient.isFinite && quotient.rounded() == quotient
    }

    // MARK: - Strings

    private mutating func checkString(_ schema: JSON, _ text: String, _ path: InstancePath, _ result: inout Annotations)
    {
        if let minimum = Self.integer(schema["minLength"]) {
            let length = text.unicodeScalars.count
            if length < minimum {
                fail(&result, path, "expected at least \(minimum) character\(minimum == 1 ? "" : "s"), got \(length)")
            }
        }
        if let maximum = Self.integer(schema["maxLength"]) {
            let length = text.unicodeScalars.count
            if length > maximum {
                fail(&result, path, "expected at most \(maximum) character\(maximum == 1 ? "" : "s"), got \(length)")
            }
        }
        if case .string(let pattern)? = schema["pattern"], let regex = PatternCache.shared.regex(pattern),
            regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) == nil
        {
            fail(&result, path, "expected to match /\(pattern)/, got \(Self.short(.string(text)))")
        }
        if validator.options.assertFormats, case .string(let format)? = schema["format"],
            let problem = SchemaFormats.checkString(text, format: format)
        {
            fail(&result, path, problem)
        }
    }

    // MARK: - Arrays

    private mutating func checkArray(
        _ schema: JSON, _ elements: [JSON], base: String, path: InstancePath, scope: [String], depth: Int,
        _ result: inout Annotations
    ) {
        if let minimum = Self.integer(schema["minItems"]), elements.count < minimum {
            fail(&result, path, "expected at least \(minimum) item\(minimum == 1 ? "" : "s"), got \(elements.count)")
        }
        if let maximum = Self.integer(schema["maxItems"]), elements.count > maximum {
            fail(&result, path, "expected at most \(maximum) item\(maximum == 1 ? "" : "s"), got \(elements.count)")
        }
        if schema["uniqueItems"] == .bool(true) {
            outer: for i in elements.indices {
                for j in elements.indices where j > i && elements[i].isEquivalent(to: elements[j]) {
                    fail(&result, path, "expected unique items, but items \(i) and \(j) are equal")
                    break outer
                }
            }
        }
        if !result.valid && !collect { return }

        // Positional items: 2020-12's prefixItems, draft 4's array form of items.
        var positional: [JSON] = []
        var rest: JSON?
        if dialect == .draft2020_12 {
            if case .array(let prefix)? = schema["prefixItems"] { positional = prefix }
            rest = schema["items"]
        } else if case .array(let prefix)? = schema["items"] {
            positional = prefix
            rest = schema["additionalItems"]
        } else {
            rest = schema["items"]
        }
        for (index, element) in elements.enumerated() {
            let itemSchema: JSON
            if index < positional.count {
                itemSchema = positional[index]
            } else if let rest {
                itemSchema = rest
            } else {
                break
            }
            let outcome = evaluate(
                itemSchema, base: base, instance: element, path: path.appending(.index(index)), scope: scope,
                depth: depth + 1)
            if !outcome.valid {
                result.valid = false
                if !collect { return }
            }
            result.items.insert(index)
        }
        if rest != nil, elements.count > positional.count { result.allItems = true }

        if let contains = schema["contains"] {
            var matched = 0
            for (index, element) in elements.enumerated() {
                var probe = SchemaEvaluation(validator: validator, collect: false)
                if probe.evaluate(
                    contains, base: base, instance: element, path: path.appending(.index(index)), scope: scope,
                    depth: depth + 1
                ).valid {
                    matched += 1
                    result.items.insert(index)
                }
            }
            let minimum = dialect == .draft2020_12 ? Self.integer(schema["minContains"]) ?? 1 : 1
            if matched < minimum {
                fail(
                    &result, path,
                    minimum == 1
                        ? "expected an item that matches `contains`, found none"
                        : "expected at least \(minimum) items that match `contains`, found \(matched)")
            }
            if dialect == .draft2020_12, let maximum = Self.integer(schema["maxContains"]), matched > maximum {
                fail(&result, path, "expected at most \(maximum) items that match `contains`, found \(matched)")
            }
        }
    }

    // MARK: - Objects

    private mutating func checkObject(
        _ schema: JSON, _ members: [JSON.Member], base: String, path: InstancePath, scope: [String], depth: Int,
        _ result: inout Annotations
    ) {
        if let minimum = Self.integer(schema["minProperties"]), members.count < minimum {
            fail(
                &result, path, "expected at least \(minimum) propert\(minimum == 1 ? "y" : "ies"), got \(members.count)"
            )
        }
        if let maximum = Self.integer(schema["maxProperties"]), members.count > maximum {
            fail(
                &result, path, "expected at most \(maximum) propert\(maximum == 1 ? "y" : "ies"), got \(members.count)")
        }
        let properties = schema["properties"]
        if case .array(let required)? = schema["required"] {
            for case .string(let name) in required where !members.contains(where: { $0.key == name }) {
                if let skipped = validator.options.direction, isDirectional(properties?[name], skipped, base: base) {
                    continue
                }
                fail(&result, path, "missing required property '\(name)'")
            }
        }
        if case .object(let dependent)? = schema["dependentRequired"] {
            checkDependencies(dependent, members, path, &result)
        }
        if dialect != .draft2020_12, case .object(let dependencies)? = schema["dependencies"] {
            checkDependencies(
                dependencies.filter { if case .array = $0.value { true } else { false } }, members, path, &result)
        }
        if !result.valid && !collect { return }

        var patterns: [(NSRegularExpression, JSON)] = []
        if case .object(let entries)? = schema["patternProperties"] {
            patterns = entries.compactMap { entry in PatternCache.shared.regex(entry.key).map { ($0, entry.value) } }
        }
        let additional = schema["additionalProperties"]
        for member in members {
            let memberPath = path.appending(.key(member.key))
            var matched = false
            if let propertySchema = properties?[member.key] {
                matched = true
                let outcome = evaluate(
                    propertySchema, base: base, instance: member.value, path: memberPath, scope: scope, depth: depth + 1
                )
                if !outcome.valid { result.valid = false }
                if validator.options.direction == .response, isWriteOnly(propertySchema, base: base) {
                    fail(&result, memberPath, "a writeOnly property is not sent in a response")
                }
            }
            let key = member.key
            for (regex, patternSchema) in patterns
            where regex.firstMatch(in: key, range: NSRange(key.startIndex..., in: key)) != nil {
                matched = true
                let outcome = evaluate(
                    patternSchema, base: base, instance: member.value, path: memberPath, scope: scope, depth: depth + 1)
                if !outcome.valid { result.valid = false }
            }
            if !matched, let additional {
                matched = true
                if additional == .bool(false) {
                    fail(&result, memberPath, "unexpected property: the schema allows no other properties")
                } else {
                    let outcome = evaluate(
                        additional, base: base, instance: member.value, path: memberPath, scope: scope, depth: depth + 1
                    )
                    if !outcome.valid { result.valid = false }
                }
            }
            if matched { result.properties.insert(member.key) }
            if !result.valid && !collect { return }
        }

        if let names = schema["propertyNames"] {
            for member in members {
                var probe = SchemaEvaluation(validator: validator, collect: false)
                if !probe.evaluate(
                    names, base: base, instance: .string(member.key), path: path, scope: scope, depth: depth + 1
                ).valid {
                    fail(&result, path.appending(.key(member.key)), "property name '\(member.key)' is not allowed")
                }
            }
        }
        var dependentSchemas: [JSON.Member] = []
        if case .object(let entries)? = schema["dependentSchemas"] { dependentSchemas = entries }
        if dialect != .draft2020_12, case .object(let entries)? = schema["dependencies"] {
            dependentSchemas += entries.filter { if case .array = $0.value { false } else { true } }
        }
        for dependency in dependentSchemas where members.contains(where: { $0.key == dependency.key }) {
            let outcome = evaluate(
                dependency.value, base: base, instance: .object(members), path: path, scope: scope, depth: depth + 1)
            if outcome.valid { result.absorb(outcome) } else { result.valid = false }
        }
    }

    private mutating func checkDependencies(
        _ dependencies: [JSON.Member], _ members: [JSON.Member], _ path: InstancePath, _ result: inout Annotations
    ) {
        for dependency in dependencies where members.contains(where: { $0.key == dependency.key }) {
            guard case .array(let needed) = dependency.value else { continue }
            for case .string(let name) in needed where !members.contains(where: { $0.key == name }) {
                fail(&result, path, "property '\(dependency.key)' requires '\(name)', which is missing")
            }
        }
    }

    /// Whether a required property is one this direction does not carry (`readOnly` in a
    /// request, `writeOnly` in a response).
    private func isDirectional(_ property: JSON?, _ direction: SchemaValidator.Direction, base: String) -> Bool {
        guard var property else { return false }
        if case .string(let reference)? = property["$ref"], let target = registry.resolve(reference, base: base) {
            property = target.schema
        }
        return property[direction == .request ? "readOnly" : "writeOnly"] == .bool(true)
    }

    private func isWriteOnly(_ property: JSON, base: String) -> Bool {
        isDirectional(property, .response, base: base)
    }

    // MARK: - In-place applicators

    private mutating func applyInPlace(
        _ schema: JSON, _ instance: JSON, base: String, path: InstancePath, scope: [String], depth: Int,
        _ result: inout Annotations
    ) {
        if case .array(let all)? = schema["allOf"] {
            for subschema in all {
                let outcome = evaluate(
                    subschema, base: base, instance: instance, path: path, scope: scope, depth: depth + 1)
                if outcome.valid { result.absorb(outcome) } else { result.valid = false }
                if !result.valid && !collect { return }
            }
        }
        // OpenAPI's discriminator picks the alternative by a property's value.
        if dialect != .draft4, let chosen = discriminated(schema, instance, base: base) {
            switch chosen {
            case .success(let target):
                let outcome = evaluate(
                    target.schema, base: target.base, instance: instance, path: path, scope: scope, depth: depth + 1)
                if outcome.valid { result.absorb(outcome) } else { result.valid = false }
            case .failure(let problem):
                fail(&result, path, problem.message)
            }
        } else {
            if case .array(let any)? = schema["anyOf"] {
                var matched = false
                for subschema in any {
                    var probe = SchemaEvaluation(validator: validator, collect: false)
                    let outcome = probe.evaluate(
                        subschema, base: base, instance: instance, path: path, scope: scope, depth: depth + 1)
                    if outcome.valid {
                        matched = true
                        result.absorb(outcome)
                        if dialect != .draft2020_12 { break }
                    }
                }
                if !matched {
                    failAlternatives(
                        any, "anyOf", instance, base: base, path: path, scope: scope, depth: depth, &result)
                }
            }
            if case .array(let one)? = schema["oneOf"] {
                var matches: [Int] = []
                var matchedOutcome = Annotations(valid: true)
                for (index, subschema) in one.enumerated() {
                    var probe = SchemaEvaluation(validator: validator, collect: false)
                    let outcome = probe.evaluate(
                        subschema, base: base, instance: instance, path: path, scope: scope, depth: depth + 1)
                    if outcome.valid {
                        matches.append(index)
                        matchedOutcome = outcome
                    }
                }
                if matches.isEmpty {
                    failAlternatives(
                        one, "oneOf", instance, base: base, path: path, scope: scope, depth: depth, &result)
                } else if matches.count > 1 {
                    fail(
                        &result, path,
                        "matches \(matches.count) of the schemas in oneOf (\(matches.map { "#\($0 + 1)" }.joined(separator: ", "))), expected exactly one"
                    )
                } else {
                    result.absorb(matchedOutcome)
                }
            }
        }
        if let not = schema["not"] {
            var probe = SchemaEvaluation(validator: validator, collect: false)
            if probe.evaluate(not, base: base, instance: instance, path: path, scope: scope, depth: depth + 1).valid {
                fail(&result, path, "matches the schema in `not`, which it must not")
            }
        }
        if dialect == .draft2020_12, let condition = schema["if"] {
            var probe = SchemaEvaluation(validator: validator, collect: false)
            let outcome = probe.evaluate(
                condition, base: base, instance: instance, path: path, scope: scope, depth: depth + 1)
            if outcome.valid { result.absorb(outcome) }
            if let branch = outcome.valid ? schema["then"] : schema["else"] {
                let branchOutcome = evaluate(
                    branch, base: base, instance: instance, path: path, scope: scope, depth: depth + 1)
                if branchOutcome.valid { result.absorb(branchOutcome) } else { result.valid = false }
            }
        }
    }

    /// None of the alternatives matched: one violation saying so, then (when collecting) the
    /// violations of the closest alternative, which is usually the one meant.
    private mutating func failAlternatives(
        _ alternatives: [JSON], _ keyword: String, _ instance: JSON, base: String, path: InstancePath,
        scope: [String], depth: Int, _ result: inout Annotations
    ) {
        fail(&result, path, "matches none of the \(alternatives.count) schemas in \(keyword)")
        guard collect, alternatives.count <= 16 else { return }
        var closest: [SchemaViolation]?
        for subschema in alternatives {
            var probe = SchemaEvaluation(validator: validator, collect: true)
            _ = probe.evaluate(subschema, base: base, instance: instance, path: path, scope: scope, depth: depth + 1)
            if closest == nil || probe.violations.count < closest!.count { closest = probe.violations }
        }
        violations += closest ?? []
    }

    private struct DiscriminatorProblem: Error {
        var message: String
    }

    private func discriminated(
        _ schema: JSON, _ instance: JSON, base: String
    ) -> Result<LocatedSchema, DiscriminatorProblem>? {
        guard case .string(let property)? = schema["discriminator"]?["propertyName"],
            schema["oneOf"] != nil || schema["anyOf"] != nil, case .string(let value)? = instance[property]
        else { return nil }
        let reference =
            schema["discriminator"]?["mapping"]?[value]?.string.map { mapped in
                mapped.contains("#") || mapped.contains("/") ? mapped : "#/components/schemas/\(mapped)"
            } ?? "#/components/schemas/\(value)"
        guard let target = registry.resolve(reference, base: base) else {
            return .failure(
                DiscriminatorProblem(message: "\(property) '\(value)' names no schema this description holds"))
        }
        return .success(target)
    }

    // MARK: - unevaluatedProperties, unevaluatedItems

    private mutating func checkUnevaluated(
        _ schema: JSON, _ instance: JSON, base: String, path: InstancePath, scope: [String], depth: Int,
        _ result: inout Annotations
    ) {
        if let unevaluated = schema["unevaluatedProperties"], case .object(let members) = instance {
            for member in members where !result.properties.contains(member.key) {
                let memberPath = path.appending(.key(member.key))
                if unevaluated == .bool(false) {
                    fail(&result, memberPath, "unexpected property: the schema allows no other properties")
                } else {
                    let outcome = evaluate(
                        unevaluated, base: base, instance: member.value, path: memberPath, scope: scope,
                        depth: depth + 1)
                    if !outcome.valid { result.valid = false }
                }
                result.properties.insert(member.key)
                if !result.valid && !collect { return }
            }
        }
        if let unevaluated = schema["unevaluatedItems"], case .array(let elements) = instance, !result.allItems {
            for (index, element) in elements.enumerated() where !result.items.contains(index) {
                let itemPath = path.appending(.index(index))
                if unevaluated == .bool(false) {
                    fail(&result, itemPath, "unexpected item: the schema allows no more items")
                } else if !evaluate(
                    unevaluated, base: base, instance: element, path: itemPath, scope: scope, depth: depth + 1
                ).valid {
                    result.valid = false
                }
                if !result.valid && !collect { return }
            }
            result.allItems = true
        }
    }

    // MARK: - Helpers

    private mutating func fail(_ result: inout Annotations, _ path: InstancePath, _ message: @autoclosure () -> String)
    {
        result.valid = false
        report(path, message())
    }

    private mutating func report(_ path: InstancePath, _ message: @autoclosure () -> String) {
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

    /// The pattern as an ICU regular expression (close to ECMA-262's); `nil` when it does not compile.
    func regex(_ pattern: String) -> NSRegularExpression? {
        lock.lock()
        defer { lock.unlock() }
        if let known = compiled[pattern] { return known }
        let regex = try? NSRegularExpression(pattern: pattern)
        compiled[pattern] = regex
        return regex
    }
}
