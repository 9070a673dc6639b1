import FathomProtobuf
import SwiftProtobuf
import Testing

@Suite struct DescriptorPoolTests {
    @Test func linksFilesGivenDependentFirstAndDerivesJSONNames() throws {
        let pool = try DescriptorPool(files: Proto.users)
        #expect(pool.files == ["users.proto", "common.proto"])
        let user = pool[try #require(pool.message(named: "demo.User"))]
        #expect(user.field(number: 2)?.jsonName == "displayName")
        #expect(user.field(named: "display_name")?.number == 2)
        #expect(user.field(named: "displayName")?.number == 2)
        // `common.Address` from inside `demo.User` resolves through the package scopes.
        #expect(user.field(number: 5).map { $0.type.name(in: pool) } == "common.Address")
        #expect(user.field(number: 11).map { $0.type.name(in: pool) } == "demo.User")
        #expect(user.oneofs.map(\.name) == ["contact"])
        #expect(user.field(number: 10)?.hasPresence == true)
        #expect(user.field(number: 10)?.oneof == nil)
        #expect(user.field(number: 1)?.hasPresence == false)
        #expect(user.field(number: 9)?.isPacked == true)
        let service = try #require(pool.service(named: ".demo.Users"))
        #expect(service.methods.map(\.kind) == ["unary", "server streaming", "bidirectional streaming"])
        #expect(pool.message(named: ".demo.User.LabelsEntry").map { pool[$0].isMapEntry } == true)
    }

    @Test(arguments: [
        "_field_name3": "FieldName3", "field__name4_": "fieldName4", "field_0_name6": "field0Name6",
        "FIELD_NAME11": "FIELDNAME11", "__Field_name14": "FieldName14", "plain": "plain",
    ])
    func jsonNamesAreDerivedAsProtocDerivesThem(name: String, expected: String) {
        #expect(DescriptorPool.jsonName(for: name) == expected)
    }

    @Test func theSameFileTwiceIsTakenOnce() throws {
        let pool = try DescriptorPool(files: Proto.users + Proto.users)
        #expect(pool.files.count == 2)
    }

    static let hostile: [(String, [Google_Protobuf_FileDescriptorProto])] = {
        var cases: [(String, [Google_Protobuf_FileDescriptorProto])] = []
        cases.append(("users.proto imports common.proto, which is not among the descriptors", [Proto.users[0]]))
        var cycleA = Proto.file("a.proto", imports: ["b.proto"])
        cycleA.package = "a"
        let cycleB = Proto.file("b.proto", package: "b", imports: ["c.proto"])
        let cycleC = Proto.file("c.proto", package: "c", imports: ["a.proto"])
        cases.append(("import cycle: a.proto → b.proto → c.proto → a.proto", [cycleA, cycleB, cycleC]))
        cases.append(
            (
                "demo.M.x: type Nowhere is not among the descriptors",
                [Proto.file("m.proto", messages: [Proto.message("M", [Proto.field("x", 1, .message, "Nowhere")])])]
            ))
        cases.append(
            (
                "demo.M.x: demo.E is not a message",
                [
                    Proto.file(
                        "m.proto", messages: [Proto.message("M", [Proto.field("x", 1, .message, ".demo.E")])],
                        enums: [Proto.enumeration("E", [("A", 0)])])
                ]
            ))
        cases.append(
            (
                "demo.M.b: number 1 is also a's",
                [
                    Proto.file(
                        "m.proto",
                        messages: [Proto.message("M", [Proto.field("a", 1, .int32), Proto.field("b", 1, .int32)])])
                ]
            ))
        cases.append(
            (
                "demo.M is defined in m.proto and again in n.proto",
                [
                    Proto.file("m.proto", messages: [Proto.message("M", [])]),
                    Proto.file("n.proto", messages: [Proto.message("M", [])]),
                ]
            ))
        cases.append(
            (
                "demo.M.x: field number 0 is outside 1…536870911",
                [Proto.file("m.proto", messages: [Proto.message("M", [Proto.field("x", 0, .int32)])])]
            ))
        cases.append(
            (
                "demo.M.x: oneof index 3 names no oneof",
                [Proto.file("m.proto", messages: [Proto.message("M", [Proto.field("x", 1, .int32, oneof: 3)])])]
            ))
        cases.append(
            (
                "demo.M.m: map entry demo.M.E needs a key (1) and a value (2)",
                [
                    Proto.file(
                        "m.proto",
                        messages: [
                            Proto.message(
                                "M", [Proto.field("m", 1, .message, "E", repeated: true)],
                                nested: [Proto.message("E", [Proto.field("value", 2, .int32)], mapEntry: true)])
                        ])
                ]
            ))
        cases.append(
            (
                "demo.S/Get: its input Missing is not a message among the descriptors",
                [Proto.file("s.proto", services: [Proto.service("S", [("Get", "Missing", "Missing", false, false)])])]
            ))
        cases.append(
            ("two different files are named m.proto", [Proto.file("m.proto"), Proto.file("m.proto", package: "other")]))
        cases.append(("enum demo.E has no values", [Proto.file("m.proto", enums: [Proto.enumeration("E", [])])]))
        cases.append(
            (
                "m.proto has syntax \"proto4\", which is none of proto2, proto3, editions",
                [Proto.file("m.proto", syntax: "proto4")]
            ))
        return cases
    }()

    @Test(arguments: hostile)
    func hostileDescriptorsAreOneLineErrors(expected: String, files: [Google_Protobuf_FileDescriptorProto]) {
        #expect(throws: ProtobufError(expected)) { try DescriptorPool(files: files) }
    }

    @Test func bytesThatAreNoDescriptorAreAnError() {
        #expect(throws: ProtobufError.self) {
            try DescriptorPool(fileDescriptorSet: [0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f])
        }
        #expect(throws: ProtobufError.self) { try DescriptorPool(serializedFiles: [[0x12]]) }
    }

    @Test func commentsComeFromSourceInformation() throws {
        var file = Proto.users[1]
        var location = Google_Protobuf_SourceCodeInfo.Location()
        location.path = [4, 0]
        location.leadingComments = " Where a user lives.\n"
        var fieldLocation = Google_Protobuf_SourceCodeInfo.Location()
        fieldLocation.path = [4, 0, 2, 1]
        fieldLocation.leadingComments = " Postal code.\n"
        file.sourceCodeInfo.location = [location, fieldLocation]
        let pool = try DescriptorPool(files: [file])
        let address = pool[try #require(pool.message(named: "common.Address"))]
        #expect(address.comment == "Where a user lives.")
        #expect(address.field(number: 2)?.comment == "Postal code.")
        #expect(address.field(number: 1)?.comment == nil)
    }

    @Test func proto2EnumsAreClosedAndFieldsHavePresence() throws {
        let file = Proto.file(
            "p2.proto", syntax: "proto2",
            messages: [Proto.message("M", [Proto.field("n", 1, .int32), Proto.field("e", 2, .enum, "E")])],
            enums: [Proto.enumeration("E", [("ONE", 1)])])
        let pool = try DescriptorPool(files: [file])
        #expect(pool.enumeration(named: "demo.E").map { pool[$0].isOpen } == false)
        #expect(pool.message(named: "demo.M").flatMap { pool[$0].field(number: 1)?.hasPresence } == true)
    }
}
