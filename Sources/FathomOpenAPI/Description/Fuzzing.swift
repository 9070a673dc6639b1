import Foundation

/// Entry points for the fuzz targets in `Fuzz/` (`make fuzz`).
///
/// Not API: `@_spi(Fuzzing)`.
@_spi(Fuzzing) public enum Fuzzing {
    /// Bytes as a description's YAML text: read to a value, or refused with one error.
    public static func yaml(_ data: Data) {
        _ = try? DocumentText.parse(data, name: "fuzz.yaml")
    }
}
