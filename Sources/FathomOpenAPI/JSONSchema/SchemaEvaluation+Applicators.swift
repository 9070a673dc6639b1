import FathomJSON
import Foundation

/// The in-place applicators (`allOf`, `anyOf`, `oneOf`, `not`, `if`, OpenAPI's
/// `discriminator`) and 2020-12's `unevaluatedProperties`/`unevaluatedItems`, which read what the
/// others evaluated.
extension SchemaEvaluation {
    // MARK: - In-place applicators

    mutating func applyInPlace(
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
    mutating func failAlternatives(
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

    struct DiscriminatorProblem: Error {
        var message: String
    }

    func discriminated(
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

    mutating func checkUnevaluated(
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
}
