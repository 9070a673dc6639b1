import FathomHTTP

/// `proxy [URL|off]`: an HTTP or SOCKS5 proxy for every request (an HTTP proxy's password a secret).
struct ProxyCommand: SingleCommand {
    static let spec = CommandSpec(
        name: "proxy", synopsis: "proxy [URL|off]", summary: "send requests through an HTTP or SOCKS5 proxy",
        details: "http://[user:password@]host[:port], or socks5://host[:port] (the proxy resolves host names).",
        completion: .words(["off"]), group: .client)

    var setting: Setting<String>

    static func parse(_ arguments: inout Arguments) throws(CommandError) -> Self {
        ProxyCommand(setting: try arguments.setting { $0.text })
    }

    var logKind: SessionLog.Kind? { setting == .show ? nil : .setting }

    var line: String {
        switch setting {
        case .show: "proxy"
        case .off: "proxy off"
        case .set(let url): "proxy " + Quoting.word(url)
        }
    }

    func credentialName(for value: String) -> String? { "proxy_password" }

    /// The password in `http://user:password@host` as written.
    var declaredSecrets: [String] {
        guard case .set(let url) = setting, let scheme = url.range(of: "://"),
            let at = url[scheme.upperBound...].lastIndex(of: "@")
        else { return [] }
        let userinfo = url[scheme.upperBound..<at]
        guard let colon = userinfo.firstIndex(of: ":") else { return [] }
        let password = String(userinfo[userinfo.index(after: colon)...])
        return password.isEmpty || Variables.hasReference(password) ? [] : [password]
    }

    func run(in executor: isolated Executor) async throws -> CommandResult {
        switch setting {
        case .show:
            return .shows(
                .setting(
                    SettingShown(name: "proxy", value: executor.session.settings.proxy.map { .text($0) } ?? .unset)))
        case .set(let written):
            // A password may be a variable (`http://me:{{proxy_password}}@proxy:3128`).
            let url = try executor.session.variables.expand(written)
            let proxy = try ProxyServer(parsing: url)
            if let password = proxy.password { executor.redactor.addSecret(password) }
            executor.session.settings.proxy = url
        case .off: executor.session.settings.proxy = nil
        }
        return .done
    }
}
