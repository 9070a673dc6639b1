/// Fathom's version, as CHANGELOG.md records it: `fathom --version`, the User-Agent every request
/// is sent with unless it has its own (`fathom/0.3.0`), and `make dist`'s file names.
public enum FathomVersion {
    public static let current = "0.3.0"
}
