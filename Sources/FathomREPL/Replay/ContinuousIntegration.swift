/// Whether a process runs under a CI system, which may give it a pseudo-terminal (Buildkite,
/// `docker run -t` on Jenkins) though nobody is there to type: a replay then asks for nothing.
public enum ContinuousIntegration {
    /// Variables the common CI systems set: `CI` (GitHub Actions, GitLab, CircleCI, Travis,
    /// Buildkite…), and those that set others — Jenkins (`JENKINS_URL`, `BUILD_NUMBER` with
    /// `BUILD_ID`), TeamCity, Azure Pipelines (`TF_BUILD`), Bamboo, Drone, Bitbucket, CodeBuild.
    static let markers = [
        "JENKINS_URL", "JENKINS_HOME", "TEAMCITY_VERSION", "TF_BUILD", "BUILDKITE", "GITLAB_CI", "GITHUB_ACTIONS",
        "CIRCLECI", "TRAVIS", "DRONE", "BITBUCKET_BUILD_NUMBER", "CODEBUILD_BUILD_ID", "bamboo_buildKey",
        "HUDSON_URL", "GO_PIPELINE_NAME", "APPVEYOR", "SEMAPHORE", "BUILDKITE_BUILD_ID",
    ]

    /// Whether `environment` says a CI system runs this process: `CI` set to anything but empty,
    /// `false` or `0`, or one of the systems' own variables; Jenkins's pair `BUILD_NUMBER` and
    /// `BUILD_ID` counts too.
    public static func detected(in environment: [String: String]) -> Bool {
        if let ci = environment["CI"], !ci.isEmpty, ci != "false", ci != "0" { return true }
        if markers.contains(where: { environment[$0].map { !$0.isEmpty } ?? false }) { return true }
        return environment["BUILD_NUMBER"]?.isEmpty == false && environment["BUILD_ID"]?.isEmpty == false
    }
}
