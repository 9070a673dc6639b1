import FathomJSON
import Foundation

/// A problem OpenAPIKit's structure check found in a description, with its place written the
/// way the document is (`paths./pets.get.responses`): the description still loads, and
/// `spec problems` lists them all, in the document's order.
public struct DescriptionProblem: Sendable, Hashable, CustomStringConvertible {
    /// Where, as the keys from the document's root joined with `.`; empty for the whole document.
    public var place: String
    /// What is wrong there.
    public var message: String

    /// A problem at `place`.
    public init(place: String, message: String) {
        self.place = place
        self.message = message
    }

    /// `paths./pets.get.responses: …`.
    public var description: String { place.isEmpty ? message : "\(place): \(message)" }

    /// The operation a problem's place is in (`paths./pets.get…` → path `/pets`, method `GET`),
    /// or the path item alone (method `nil`, for its own parameters), or `nil` outside `paths`.
    public var operation: (path: String, method: String?)? {
        let keys = DescriptionProblem.keys(of: place)
        guard keys.count >= 2, keys[0] == "paths" else { return nil }
        let method = keys.count >= 3 && StructureCheck.methods.contains(keys[2]) ? keys[2].uppercased() : nil
        return (keys[1], method)
    }

    /// The keys of a place: a path template's own dots and slashes kept (`paths./v1.2/x.get`).
    static func keys(of place: String) -> [String] {
        var keys: [String] = []
        var rest = Substring(place)
        while !rest.isEmpty {
            // A path template starts with `/` and runs to the next `.` that is followed by a
            // method or a structure keyword, or to the end.
            if rest.hasPrefix("/") {
                var end = rest.endIndex
                var search = rest.startIndex
                while let dot = rest[search...].firstIndex(of: ".") {
                    let after = rest[rest.index(after: dot)...]
                    let next = after.prefix { $0 != "." }
                    if StructureCheck.methods.contains(String(next))
                        || ["parameters", "servers", "summary", "description"]
                            .contains(String(next))
                    {
                        end = dot
                        break
                    }
                    search = rest.index(after: dot)
                }
                keys.append(String(rest[..<end]))
                rest = end == rest.endIndex ? "" : rest[rest.index(after: end)...]
                continue
            }
            let end = rest.firstIndex(of: ".") ?? rest.endIndex
            keys.append(String(rest[..<end]))
            rest = end == rest.endIndex ? "" : rest[rest.index(after: end)...]
        }
        return keys
    }
}

/// Decodes a whole document with one OpenAPI version's types (``StructureCheck30``,
/// ``StructureCheck31``): its first problem's coding path and message, or `nil`.
protocol StructureDecoding {
    static func problem(decoding json: Data) -> (path: [any CodingKey], message: String)?
    /// Whether OpenAPIKit decodes `document`, asked over the tree (``TreeDecoder``): the quick
    /// answer for a description with no problem.
    static func decodes(_ document: JSON) -> Bool
}

/// OpenAPIKit's structure check, made to report everything, in the document's order.
///
/// OpenAPIKit decodes a document and stops at the first problem it meets — which, behind its
/// dictionaries, was a different one on every run. When the whole does not decode, each part
/// (an operation, a response, a schema…) is decoded again on its own, placed in the smallest
/// valid document that holds it where it was (OpenAPIKit's errors expect a document's coding
/// paths), and when a part fails, its own parts are tried in turn: each problem is reported at
/// the innermost part that has it.
enum StructureCheck {
    static let methods: Set<String> = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]

    /// Every problem in `document`, in its order; empty when OpenAPIKit decodes it.
    ///
    /// `json` is the document as JSON text (given to save writing it again), for the whole
    /// document's decode.
    static func problems(in document: JSON, json: Data, decoding: any StructureDecoding.Type) -> [DescriptionProblem] {
        // Most descriptions have no problem: the tree's decode says so sooner than Foundation's
        // decoder would, and only a description it refuses is decoded again for the words.
        if decoding.decodes(document) { return [] }
        guard let whole = decoding.problem(decoding: json) else { return [] }
        var walker = Walker(decoding: decoding, version: document["openapi"] ?? .string("3.0.0"))
        walker.walk(document)
        // A problem no part has on its own is the whole's (a missing `info`, an unknown `openapi`).
        if walker.problems.isEmpty {
            walker.problems.append(Self.problem(whole.path, whole.message, skeleton: [], at: []))
        }
        return walker.problems
    }

    /// A problem at `place`: the coding path below the part's place in its skeleton, under the
    /// part's real place.
    static func problem(
        _ path: [any CodingKey], _ message: String, skeleton: [String], at place: [String]
    ) -> DescriptionProblem {
        // The coding path is the skeleton's: its keys where it follows the skeleton's path are the
        // real place's (an array's element is the first in the skeleton), the rest as they are.
        let keys = path.map { key in key.intValue.map(String.init) ?? key.stringValue }
        let shared = zip(keys, skeleton).prefix { $0 == $1 }.count
        let real = Array(place.prefix(shared)) + keys.dropFirst(shared)
        let text = StructureProblem.line(path: [], message: message)
        return DescriptionProblem(place: real.joined(separator: "."), message: text)
    }

    struct Walker {
        let decoding: any StructureDecoding.Type
        let version: JSON
        var problems: [DescriptionProblem] = []

        /// Checks `value` at `place`; when it fails, checks its parts (`children`) and reports
        /// theirs, or its own when none of them has one.
        mutating func check(_ value: JSON?, at place: [String], children: (inout Walker) -> Void = { _ in }) {
            guard let value, value["$ref"] == nil else { return }
            let (skeleton, path) = self.skeleton(holding: value, at: place)
            guard let (codingPath, message) = decoding.problem(decoding: Data(skeleton.formatted(.compactText).utf8))
            else { return }
            let before = problems.count
            children(&self)
            if problems.count == before {
                problems.append(StructureCheck.problem(codingPath, message, skeleton: path, at: place))
            }
        }

        /// The smallest document OpenAPIKit reads that has `value` at `place` (an array's element
        /// as its first), and the keys of that place in it.
        func skeleton(holding value: JSON, at place: [String]) -> (JSON, [String]) {
            let arrays: Set<String> = ["parameters", "servers", "tags"]
            var path = place
            var built = value
            // From the innermost container out: the one at `depth` holds `place[depth]`.
            for depth in place.indices.reversed() {
                let key = place[depth]
                if depth > 0, arrays.contains(place[depth - 1]), Int(key) != nil {
                    path[depth] = "0"
                    built = .array([built])
                    continue
                }
                var members = [JSON.Member(key: key, value: built)]
                let inPaths = place[0] == "paths" || place[0] == "webhooks"
                // An operation needs its responses; a response, its description.
                if inPaths, depth == 3, key != "responses" {
                    members.append(JSON.Member(key: "responses", value: Self.minimalResponses))
                }
                let isResponse =
                    (inPaths && depth == 5 && place[3] == "responses")
                    || (place[0] == "components" && place[1] == "responses" && depth == 3)
                if isResponse { members.append(JSON.Member(key: "description", value: .string(""))) }
                built = .object(members)
            }
            return (Self.merged(built, ["openapi": version, "info": Self.minimalInfo, "paths": .object([])]), path)
        }

        static let minimalInfo = JSON.object([
            JSON.Member(key: "title", value: .string("")), JSON.Member(key: "version", value: .string("")),
        ])
        static let minimalResponses = JSON.object([
            JSON.Member(key: "200", value: .object([JSON.Member(key: "description", value: .string(""))]))
        ])

        /// `document` with the members of `extra` it does not have, first.
        static func merged(_ document: JSON, _ extra: KeyValuePairs<String, JSON>) -> JSON {
            guard case .object(let members) = document else { return document }
            let added = extra.filter { pair in !members.contains { $0.key == pair.key } }
            return .object(added.map { JSON.Member(key: $0.key, value: $0.value) } + members)
        }

        mutating func each(_ value: JSON?, at place: [String], _ body: (inout Walker, JSON, [String]) -> Void) {
            switch value {
            case .object(let members)?: for member in members { body(&self, member.value, place + [member.key]) }
            case .array(let elements)?:
                for (index, element) in elements.enumerated() { body(&self, element, place + [String(index)]) }
            default: break
            }
        }

        mutating func walk(_ document: JSON) {
            check(document["info"], at: ["info"])
            each(document["servers"], at: ["servers"]) { $0.check($1, at: $2) }
            each(document["paths"], at: ["paths"]) { $0.pathItem($1, at: $2) }
            each(document["webhooks"], at: ["webhooks"]) { $0.pathItem($1, at: $2) }
            let components = document["components"]
            for kind in ["schemas", "parameters", "examples", "headers", "securitySchemes", "links"] {
                each(components?[kind], at: ["components", kind]) { $0.check($1, at: $2) }
            }
            each(components?["responses"], at: ["components", "responses"]) { $0.response($1, at: $2) }
            each(components?["requestBodies"], at: ["components", "requestBodies"]) { $0.requestBody($1, at: $2) }
            each(document["tags"], at: ["tags"]) { $0.check($1, at: $2) }
        }

        mutating func pathItem(_ item: JSON, at place: [String]) {
            check(item, at: place) { walker in
                walker.each(item["parameters"], at: place + ["parameters"]) { $0.check($1, at: $2) }
                guard case .object(let members) = item else { return }
                for member in members where StructureCheck.methods.contains(member.key) {
                    walker.operation(member.value, at: place + [member.key])
                }
            }
        }

        mutating func operation(_ operation: JSON, at place: [String]) {
            check(operation, at: place) { walker in
                walker.each(operation["parameters"], at: place + ["parameters"]) { $0.check($1, at: $2) }
                if let body = operation["requestBody"] { walker.requestBody(body, at: place + ["requestBody"]) }
                walker.each(operation["responses"], at: place + ["responses"]) { $0.response($1, at: $2) }
            }
        }

        mutating func requestBody(_ body: JSON, at place: [String]) {
            check(body, at: place) { walker in
                walker.each(body["content"], at: place + ["content"]) { $0.check($1, at: $2) }
            }
        }

        mutating func response(_ response: JSON, at place: [String]) {
            check(response, at: place) { walker in
                walker.each(response["headers"], at: place + ["headers"]) { $0.check($1, at: $2) }
                walker.each(response["content"], at: place + ["content"]) { $0.check($1, at: $2) }
                walker.each(response["links"], at: place + ["links"]) { $0.check($1, at: $2) }
            }
        }
    }
}

/// A root document as the structure check reads it, kept until it is asked for.
struct StructureInput: Sendable {
    let document: JSON
    /// The document's own JSON text, when it was JSON (the check decodes it without writing it again).
    let text: Data?

    func problems(dialect: SchemaDialect) -> [DescriptionProblem] {
        let objects = dialect == .draft2020_12 ? BooleanSchemas.asObjects(in: document) : nil
        let narrowed = Self.narrowingWideIntegers(in: objects ?? document)
        let checked = narrowed ?? objects ?? document
        let json =
            narrowed == nil && objects == nil
            ? text ?? Data(document.formatted(.compactText).utf8) : Data(checked.formatted(.compactText).utf8)
        let decoding: any StructureDecoding.Type = dialect == .openAPI30 ? StructureCheck30.self : StructureCheck31.self
        return StructureCheck.problems(in: checked, json: json, decoding: decoding)
    }

    /// `value` with every integer beyond Int64 (OpenAI's `maximum: 18446744073709552000`) written
    /// as the nearest one inside it; `nil` when it has none.
    ///
    /// OpenAPIKit holds an integer schema's bounds as `Int` and reports a wider one as "not an
    /// integer": valid JSON Schema it cannot represent, not a problem of the description. Only the
    /// check reads the narrowed copy; the description keeps every number as written, and the
    /// validator compares them exactly.
    static func narrowingWideIntegers(in value: JSON) -> JSON? {
        switch value {
        case .number(let text):
            guard Int64(text) == nil, let number = Double(text), number.rounded() == number, abs(number) >= 0x1p63
            else { return nil }
            return .number(number < 0 ? String(Int64.min) : String(Int64.max))
        case .array(let elements):
            var changed: [JSON]?
            for (index, element) in elements.enumerated() {
                guard let narrowed = narrowingWideIntegers(in: element) else { continue }
                if changed == nil { changed = elements }
                changed![index] = narrowed
            }
            return changed.map(JSON.array)
        case .object(let members):
            var changed: [JSON.Member]?
            for (index, member) in members.enumerated() {
                guard let narrowed = narrowingWideIntegers(in: member.value) else { continue }
                if changed == nil { changed = members }
                changed![index].value = narrowed
            }
            return changed.map(JSON.object)
        default:
            return nil
        }
    }
}

extension APIDescription {
    /// The operations (by ``APIOperation/title``) the structure `problems` touch: those a problem
    /// is inside, every operation of a path item whose own part has one, and those whose `$ref`s
    /// reach a component that has one (through other components too).
    public func operations(touchedBy problems: [DescriptionProblem]) -> Set<String> {
        var touched = Set<String>()
        var broken = Set<String>()
        for problem in problems {
            if let (path, method) = problem.operation {
                for operation in operations
                where operation.path == path && (method == nil || operation.method == method) {
                    touched.insert(operation.title)
                }
            } else {
                let keys = DescriptionProblem.keys(of: problem.place)
                if keys.count >= 3, keys[0] == "components" { broken.insert("#/components/\(keys[1])/\(keys[2])") }
            }
        }
        guard !broken.isEmpty else { return touched }
        // A component that names a broken one is broken too, until nothing changes.
        var components: [(ref: String, refs: Set<String>)] = []
        if case .object(let kinds)? = document["components"] {
            for kind in kinds {
                guard case .object(let members) = kind.value else { continue }
                for member in members {
                    components.append(("#/components/\(kind.key)/\(member.key)", Self.references(in: member.value)))
                }
            }
        }
        var grew = true
        while grew {
            grew = false
            for component in components
            where !broken.contains(component.ref) && !component.refs.isDisjoint(with: broken) {
                broken.insert(component.ref)
                grew = true
            }
        }
        for operation in operations where !touched.contains(operation.title) {
            let item = document["paths"]?[operation.path]
            let own = item?[operation.method.lowercased()].map(Self.references) ?? []
            let shared = item?["parameters"].map(Self.references) ?? []
            if !own.isDisjoint(with: broken) || !shared.isDisjoint(with: broken) { touched.insert(operation.title) }
        }
        return touched
    }

    /// Every `$ref` in `value`, the fragment as written (`#/components/schemas/Pet`).
    static func references(in value: JSON) -> Set<String> {
        var found = Set<String>()
        func walk(_ value: JSON) {
            switch value {
            case .object(let members):
                for member in members {
                    if member.key == "$ref", case .string(let ref) = member.value {
                        found.insert(ref)
                    } else {
                        walk(member.value)
                    }
                }
            case .array(let elements): elements.forEach(walk)
            default: break
            }
        }
        walk(value)
        return found
    }
}
