import FathomJSON
import FathomProtobuf
import Testing

@Suite struct ProtoJSONTests {
    let pool: DescriptorPool
    let user: MessageID

    init() throws {
        pool = try DescriptorPool(files: Proto.users)
        user = try #require(pool.message(named: "demo.User"))
    }

    func read(_ text: String) throws -> DynamicMessage {
        try ProtoJSON(pool: pool).message(from: try JSON(parsing: text), as: user)
    }

    @Test func readingTakesWhatJSONFormatTakes() throws {
        let message = try read(#"{"display_name":"Ada","id":7,"role":2,"scores":["5",6.0,1e2],"labels":{"k":12}}"#)
        let written = try ProtoJSON(pool: pool).json(message).formatted(.compactText)
        #expect(
            written == #"{"id":"7","displayName":"Ada","role":"MEMBER","labels":{"k":"12"},"scores":[5,6,100]}"# + "\n")
        #expect(try read(#"{"id":null,"address":null}"#).values.isEmpty)
    }

    static let refused: [(String, String)] = [
        (#"{"displayNam":"x"}"#, #"demo.User has no field "displayNam"; did you mean "displayName"?"#),
        (#"{"id":1,"id":2}"#, "demo.User.id is given twice"),
        (#"{"email":"a","phone":"b"}"#, "demo.User.phone: email is set already: oneof contact takes one field"),
        (#"{"scores":[2147483648]}"#, "demo.User.scores[0]: 2147483648 is out of range"),
        (#"{"scores":[1.5]}"#, "demo.User.scores[0]: 1.5 is not an integer"),
        (#"{"scores":[null]}"#, "demo.User.scores[0]: null in a repeated field"),
        (#"{"role":"ADMN"}"#, #"demo.User.role: demo.Role has no value "ADMN"; did you mean "ADMIN"?"#),
        (#"{"tags":"a"}"#, "demo.User.tags: a repeated field is a JSON array, not string"),
        (#"{"address":[]}"#, "demo.User.address: common.Address is a JSON object, not array"),
        (#"{"id":"0x10"}"#, #"demo.User.id: "0x10" is not a number"#),
        (#"{"displayName":5}"#, "demo.User.display_name: a string is a JSON string, not number"),
        ("[]", "demo.User is a JSON object, not array"),
    ]

    @Test(arguments: refused)
    func whatJSONFormatRefusesIsAOneLineError(text: String, expected: String) {
        #expect(throws: ProtobufError(expected)) { try read(text) }
    }

    @Test func deepJSONIsAnErrorNotADeepStack() throws {
        var text = "{}"
        for _ in 0..<150 { text = #"{"friend":\#(text)}"# }
        #expect(throws: ProtobufError.self) { try read(text) }
    }
}
