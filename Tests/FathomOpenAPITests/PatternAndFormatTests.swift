import FathomJSON
import Foundation
import Testing

@testable import FathomOpenAPI

/// `pattern`s mean what ECMA-262 says, not what ICU would read in them; formats take what RFCs allow.
@Suite struct PatternAndFormatTests {
    func matches(_ pattern: String, _ text: String) -> Bool {
        let validator = SchemaValidator(
            schema: .object([JSON.Member(key: "pattern", value: .string(pattern))]), dialect: .draft2020_12)
        return validator.validate(.string(text)).isEmpty
    }

    @Test func classEscapesAreASCIIAsECMASays() {
        #expect(matches(#"^\d+$"#, "2026") && !matches(#"^\d+$"#, "߀߀"))
        #expect(matches(#"^\D$"#, "߀") && matches(#"^\W$"#, "é"))
        #expect(matches(#"^[\w-]+$"#, "a_b-9") && !matches(#"^[\w-]+$"#, "é"))
        #expect(matches(#"^\s$"#, "\u{FEFF}") && matches(#"^[^\S]$"#, "\u{0B}"))
        #expect(matches(#"^a\.b$"#, "a.b") && !matches(#"^a\.b$"#, "axb"))
    }

    @Test func emptyClassesMatchNothingOrAnything() {
        #expect(ECMAPattern.icu("a[]b") == "a(?!)b" && !matches("a[]b", "ab"))
        #expect(matches("^[^]$", "\n"))
        #expect(ECMAPattern.icu(#"[\]a]"#) == #"[\]a]"#)
    }

    /// Formats that real data uses and the validator must not refuse: quoted local parts, address
    /// literals.
    @Test func emailsWithQuotedLocalPartsAndAddressLiterals() {
        #expect(SchemaFormats.isEmail(#""joe bloggs"@example.com"#))
        #expect(SchemaFormats.isEmail("joe@[127.0.0.1]") && !SchemaFormats.isEmail("joe@[127.0.0.300]"))
        #expect(SchemaFormats.isEmail("joe@[IPv6:::1]"))
        #expect(!SchemaFormats.isEmail("joe..bloggs@example.com") && !SchemaFormats.isEmail("joe bloggs@example.com"))
    }

    /// RFC 3339's grammar: `T` (or `t`) between date and time; a space is its prose's aside, not
    /// the format.
    @Test func dateTimesTakeTheirT() {
        for good in ["2026-11-26T03:51:14Z", "2026-11-26t03:51:14.5+01:00", "1990-12-31T23:59:60Z"] {
            #expect(SchemaFormats.isDateTime(good), "\(good)")
        }
        for bad in ["2026-11-26 03:51:14Z", "2026-11-26", "2026-11-26T03:51:14", "2026-11-26T25:00:00Z"] {
            #expect(!SchemaFormats.isDateTime(bad), "\(bad)")
        }
    }

    @Test func durationsPointersAndTemplates() {
        for good in ["P3D", "PT1H30M", "P1Y2M", "P4W", "P1Y2M3DT4H5M6S"] {
            #expect(SchemaFormats.isDuration(good), "\(good)")
        }
        for bad in ["P", "PT", "P1Y2D", "PT1H5S", "P1D2M", "1D", "P1W2D"] {
            #expect(!SchemaFormats.isDuration(bad), "\(bad)")
        }
        #expect(SchemaFormats.isJSONPointer("/a~1b/0") && SchemaFormats.isJSONPointer(""))
        #expect(!SchemaFormats.isJSONPointer("a") && !SchemaFormats.isJSONPointer("/a~2"))
        #expect(SchemaFormats.isRelativeJSONPointer("1/a") && SchemaFormats.isRelativeJSONPointer("0#"))
        #expect(!SchemaFormats.isRelativeJSONPointer("01/a") && !SchemaFormats.isRelativeJSONPointer("/a"))
        #expect(SchemaFormats.isURITemplate("https://api.test/users{/id}{?page,per_page}{&q*}"))
        #expect(!SchemaFormats.isURITemplate("/users/{id") && !SchemaFormats.isURITemplate("/a b/{x}"))
        #expect(!SchemaFormats.isURITemplate("{x:0}") && !SchemaFormats.isURITemplate("{a..b}"))
    }
}
