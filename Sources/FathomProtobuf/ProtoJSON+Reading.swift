@_spi(Fathom) import FathomJSON

extension ProtoJSON {
    func message(from json: JSON, as type: MessageID, depth: Int) throws(ProtobufError) -> DynamicMessage {
        guard depth < WireDecoder.depthLimit else { throw WireDecoder.tooDeep }
        let descriptor = pool[type]
        if let special = try wellKnown.message(
            from: json, descriptor: descriptor, type: type, mapping: self, depth: depth)
        {
            return special
        }
        guard case .object(let members) = json else {
            throw ProtobufError("\(descriptor.fullName) is a JSON object, not \(json.kindName)")
        }
        var message = DynamicMessage(type: type)
        var setOneofs: [Int: String] = [:]
        for member in members {
            guard let field = descriptor.field(named: member.key) else {
                throw ProtobufError(
                    "\(descriptor.fullName) has no field \"\(member.key)\"\(suggestion(member.key, in: descriptor))")
            }
            guard message.values[field.number] == nil else {
                throw ProtobufError("\(descriptor.fullName).\(field.name) is given twice")
            }
            do throws(ProtobufError) {
                if member.value == .null, !acceptsNull(field) { continue }
                if let oneof = field.oneof {
                    if let other = setOneofs[oneof] {
                        throw ProtobufError(
                            "\(other) is set already: oneof \(descriptor.oneofs[oneof].name) takes one field")
                    }
                    setOneofs[oneof] = field.name
                }
                message.values[field.number] = try value(member.value, for: field, depth: depth)
            } catch {
                throw error.inside(descriptor.fullName, field: field.name)
            }
        }
        return message
    }

    /// Whether `null` is a value of the field (a `google.protobuf.Value` or `NullValue`) rather
    /// than "not set".
    private func acceptsNull(_ field: FieldDescriptor) -> Bool {
        guard !field.isRepeated else { return false }
        switch field.type {
        case .message(let id): return pool[id].fullName == "google.protobuf.Value"
        case .enumeration(let id): return pool[id].fullName == "google.protobuf.NullValue"
        default: return false
        }
    }

    private func value(_ json: JSON, for field: FieldDescriptor, depth: Int) throws(ProtobufError) -> FieldValue {
        if field.isRepeated {
            if case .message(let entryType) = field.type, pool[entryType].isMapEntry {
                guard case .object(let members) = json else {
                    throw ProtobufError("a map is a JSON object, not \(json.kindName)")
                }
                let entry = pool[entryType]
                guard let keyField = entry.field(number: 1), let valueField = entry.field(number: 2) else {
                    throw ProtobufError("map entry \(entry.fullName) has no key or value")
                }
                var entries = MapEntries()
                for member in members {
                    let key = try mapKey(member.key, type: keyField.type)
                    guard member.value != .null || acceptsNull(valueField) else {
                        throw ProtobufError("the value for key \"\(member.key)\" is null")
                    }
                    entries[key] = try scalarOrMessage(member.value, type: valueField.type, depth: depth)
                }
                return .map(entries)
            }
            guard case .array(let elements) = json else {
                throw ProtobufError("a repeated field is a JSON array, not \(json.kindName)")
            }
            var values: [ProtoValue] = []
            values.reserveCapacity(elements.count)
            for (index, element) in elements.enumerated() {
                do throws(ProtobufError) {
                    guard element != .null || isValueMessage(field.type) else {
                        throw ProtobufError("null in a repeated field")
                    }
                    values.append(try scalarOrMessage(element, type: field.type, depth: depth))
                } catch {
                    throw error.atElement(index)
                }
            }
            return .list(values)
        }
        return .single(try scalarOrMessage(json, type: field.type, depth: depth))
    }

    private func isValueMessage(_ type: FieldType) -> Bool {
        if case .message(let id) = type { return pool[id].fullName == "google.protobuf.Value" }
        return false
    }

    func scalarOrMessage(_ json: JSON, type: FieldType, depth: Int) throws(ProtobufError) -> ProtoValue {
        switch type {
        case .message(let id), .group(let id): return .message(try message(from: json, as: id, depth: depth + 1))
        case .enumeration(let id): return .enumeration(try enumNumber(json, id))
        case .double: return .double(try Self.double(json))
        case .float:
            let number = try Self.double(json)
            // Out of range when it rounds to infinity: JSON writers print the largest float as
            // 3.4028235e+38, a little above it.
            if number.isFinite, Float(number).isInfinite {
                throw ProtobufError("\(number) is out of float's range")
            }
            return .float(Float(number))
        case .int32, .sint32, .sfixed32: return .int(try Self.integer(json, in: Int64(Int32.min)...Int64(Int32.max)))
        case .int64, .sint64, .sfixed64: return .int(try Self.integer(json, in: Int64.min...Int64.max))
        case .uint32, .fixed32: return .uint(try Self.unsigned(json, max: UInt64(UInt32.max)))
        case .uint64, .fixed64: return .uint(try Self.unsigned(json, max: UInt64.max))
        case .bool:
            guard case .bool(let flag) = json else {
                throw ProtobufError("a bool is true or false, not \(json.kindName)")
            }
            return .bool(flag)
        case .string:
            guard case .string(let text) = json else {
                throw ProtobufError("a string is a JSON string, not \(json.kindName)")
            }
            return .string(text)
        case .bytes:
            guard case .string(let text) = json, let bytes = Base64.decode(text) else {
                throw ProtobufError("bytes are a base64 string")
            }
            return .bytes(bytes)
        }
    }

    private func enumNumber(_ json: JSON, _ id: EnumID) throws(ProtobufError) -> Int32 {
        let descriptor = pool[id]
        switch json {
        case .null where descriptor.fullName == "google.protobuf.NullValue": return 0
        case .string(let name):
            if let value = descriptor.value(named: name) { return value.number }
            throw ProtobufError(
                "\(descriptor.fullName) has no value \"\(name)\"\(Self.nearest(name, among: descriptor.values.map(\.name)))"
            )
        case .number:
            let number = Int32(try Self.integer(json, in: Int64(Int32.min)...Int64(Int32.max)))
            guard descriptor.isOpen || descriptor.value(number: number) != nil else {
                throw ProtobufError("\(descriptor.fullName) has no value numbered \(number)")
            }
            return number
        default:
            throw ProtobufError("\(descriptor.fullName) is a value's name or number, not \(json.kindName)")
        }
    }

    private func mapKey(_ text: String, type: FieldType) throws(ProtobufError) -> ProtoValue {
        switch type {
        case .string: return .string(text)
        case .bool:
            switch text {
            case "true": return .bool(true)
            case "false": return .bool(false)
            default: throw ProtobufError("map key \"\(text)\" is not true or false")
            }
        default:
            do throws(ProtobufError) {
                return try scalarOrMessage(.string(text), type: type, depth: 0)
            } catch {
                throw ProtobufError("map key \"\(text)\": \(error.message)")
            }
        }
    }

    private func suggestion(_ key: String, in descriptor: MessageDescriptor) -> String {
        Self.nearest(key, among: descriptor.fields.map(\.jsonName))
    }

    /// `; did you mean "x"?` when a name is close to `name`, else nothing.
    static func nearest(_ name: String, among names: [String]) -> String {
        Spelling.closest(to: name, among: names).map { "; did you mean \"\($0)\"?" } ?? ""
    }

    // MARK: Numbers

    /// A JSON number's or numeric string's text, checked against JSON's number grammar.
    private static func numberText(_ json: JSON) throws(ProtobufError) -> String {
        switch json {
        case .number(let text): return text
        case .string(let text):
            guard Self.isJSONNumber(text) else { throw ProtobufError("\"\(text)\" is not a number") }
            return text
        default: throw ProtobufError("a number, not \(json.kindName)")
        }
    }

    static func integer(_ json: JSON, in range: ClosedRange<Int64>) throws(ProtobufError) -> Int64 {
        let text = try numberText(json)
        if let exact = Int64(text) {
            guard range.contains(exact) else { throw ProtobufError("\(text) is out of range") }
            return exact
        }
        guard let number = Double(text), number.rounded() == number, let exact = Int64(exactly: number),
            range.contains(exact)
        else {
            throw ProtobufError(Self.digitsOnly(text) ? "\(text) is out of range" : "\(text) is not an integer")
        }
        return exact
    }

    static func unsigned(_ json: JSON, max: UInt64) throws(ProtobufError) -> UInt64 {
        let text = try numberText(json)
        if let exact = UInt64(text) {
            guard exact <= max else { throw ProtobufError("\(text) is out of range") }
            return exact
        }
        guard let number = Double(text), number.rounded() == number, let exact = UInt64(exactly: number), exact <= max
        else {
            throw ProtobufError(
                Self.digitsOnly(text) ? "\(text) is out of range" : "\(text) is not an unsigned integer")
        }
        return exact
    }

    static func double(_ json: JSON) throws(ProtobufError) -> Double {
        switch json {
        case .string("NaN"): return .nan
        case .string("Infinity"): return .infinity
        case .string("-Infinity"): return -.infinity
        default:
            let text = try numberText(json)
            guard let number = Double(text) else { throw ProtobufError("\(text) is not a number") }
            guard number.isFinite else { throw ProtobufError("\(text) is out of double's range") }
            return number
        }
    }

    private static func digitsOnly(_ text: String) -> Bool {
        let digits = text.hasPrefix("-") ? text.dropFirst() : Substring(text)
        return !digits.isEmpty && digits.allSatisfy(\.isASCII) && digits.allSatisfy(\.isNumber)
    }

    /// RFC 8259's number: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    static func isJSONNumber(_ text: String) -> Bool {
        var bytes = text.utf8[...]
        func digits() -> Int {
            var count = 0
            while let byte = bytes.first, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                bytes.removeFirst()
                count += 1
            }
            return count
        }
        if bytes.first == UInt8(ascii: "-") { bytes.removeFirst() }
        if bytes.first == UInt8(ascii: "0") {
            bytes.removeFirst()
        } else if digits() == 0 {
            return false
        }
        if bytes.first == UInt8(ascii: ".") {
            bytes.removeFirst()
            if digits() == 0 { return false }
        }
        if bytes.first == UInt8(ascii: "e") || bytes.first == UInt8(ascii: "E") {
            bytes.removeFirst()
            if bytes.first == UInt8(ascii: "+") || bytes.first == UInt8(ascii: "-") { bytes.removeFirst() }
            if digits() == 0 { return false }
        }
        return bytes.isEmpty
    }
}
