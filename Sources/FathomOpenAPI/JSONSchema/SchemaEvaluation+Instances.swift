import FathomJSON
import Foundation

/// The keywords that read one kind of instance: numbers, strings, arrays, objects.
extension SchemaEvaluation {
    // MARK: - Numbers

    mutating func checkNumber(_ schema: JSON, _ text: String, _ path: InstancePath, _ result: inout Annotations) {
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

    /// Exact for decimals (`19.99` is a multiple of `0.01`); through `Double` when a value is beyond `Decimal`'s range.
    ///
    /// There an overflowing quotient is no multiple, except that every integer is a multiple of a step like `0.5` (one
    /// over an integer).
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
        if !quotient.isFinite {
            let reciprocal = 1 / step
            return value.rounded() == value && reciprocal.isFinite && reciprocal.rounded() == reciprocal
        }
        return quotient.rounded() == quotient
    }

    // MARK: - Strings

    mutating func checkString(_ schema: JSON, _ text: String, _ path: InstancePath, _ result: inout Annotations) {
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

    mutating func checkArray(
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

    mutating func checkObject(
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

    mutating func checkDependencies(
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
    func isDirectional(_ property: JSON?, _ direction: SchemaValidator.Direction, base: String) -> Bool {
        guard var property else { return false }
        if case .string(let reference)? = property["$ref"], let target = registry.resolve(reference, base: base) {
            property = target.schema
        }
        return property[direction == .request ? "readOnly" : "writeOnly"] == .bool(true)
    }

    func isWriteOnly(_ property: JSON, base: String) -> Bool {
        isDirectional(property, .response, base: base)
    }
}
