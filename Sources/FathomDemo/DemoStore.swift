import Foundation

/// A user of the demo API.
public struct DemoUser: Codable, Sendable, Equatable {
    public var id: Int
    public var name: String
    public var email: String
    public var role: String
    public var active: Bool
}

/// A to-do item belonging to a user.
public struct DemoTodo: Codable, Sendable, Equatable {
    public var id: Int
    public var userId: Int
    public var title: String
    public var done: Bool
    /// When a to-do was added through the API (ISO 8601); the seeded ones have none. A field that
    /// differs on every run, as real APIs have: what `volatile` is for.
    public var createdAt: String?
}

/// The demo API's data and credentials, in memory, fresh for each server.
actor DemoStore {
    private(set) var users: [DemoUser] = []
    private(set) var todos: [DemoTodo] = []
    /// Account balances by id (`/accounts/1`…`/accounts/3`), 100 each.
    private var balances: [Int: Int] = [1: 100, 2: 100, 3: 100]
    private var nextUserID = 1
    private var nextTodoID = 1
    /// Valid bearer tokens and when each expires.
    private var tokens: [String: Date] = [:]

    static let username = "ada"
    static let password = "difference-engine"
    static let clientID = "fathom-demo"
    static let clientSecret = "demo-client-secret"

    init() {
        let people: [(String, String)] = [
            ("Ada Lovelace", "admin"), ("Grace Hopper", "admin"), ("Alan Turing", "member"),
            ("Katherine Johnson", "member"), ("Edsger Dijkstra", "member"), ("Barbara Liskov", "member"),
            ("Donald Knuth", "member"), ("Margaret Hamilton", "admin"), ("Dennis Ritchie", "member"),
            ("Frances Allen", "member"), ("John Backus", "member"), ("Radia Perlman", "member"),
            ("Ken Thompson", "member"), ("Adele Goldberg", "member"), ("Tony Hoare", "member"),
            ("Shafi Goldwasser", "member"), ("Leslie Lamport", "member"), ("Hedy Lamarr", "member"),
            ("Niklaus Wirth", "member"), ("Sophie Wilson", "member"), ("Vint Cerf", "member"),
            ("Lynn Conway", "member"), ("Bjarne Stroustrup", "member"), ("Annie Easley", "member"),
            ("Guido van Rossum", "member"),
        ]
        for (index, (name, role)) in people.enumerated() {
            let handle = name.lowercased().split(separator: " ").last.map(String.init) ?? "user"
            users.append(
                DemoUser(id: nextUserID, name: name, email: "\(handle)@example.com", role: role, active: index % 7 != 6)
            )
            nextUserID += 1
        }
        let chores = ["Write the report", "Review the pull request", "Fix the flaky test", "Plan the sprint"]
        for user in users.prefix(5) {
            for (index, chore) in chores.enumerated() {
                todos.append(DemoTodo(id: nextTodoID, userId: user.id, title: chore, done: index % 2 == 0))
                nextTodoID += 1
            }
        }
    }

    // MARK: Accounts

    func balance(_ id: Int) -> Int? { balances[id] }

    func setBalance(_ id: Int, _ balance: Int) -> Bool {
        guard balances[id] != nil else { return false }
        balances[id] = balance
        return true
    }

    /// Takes `amount` from the balance as it is now, whatever it was when checked.
    func subtract(_ id: Int, _ amount: Int) -> Int {
        let balance = (balances[id] ?? 0) - amount
        balances[id] = balance
        return balance
    }

    // MARK: Users

    func user(_ id: Int) -> DemoUser? { users.first { $0.id == id } }

    func addUser(name: String, email: String, role: String) -> DemoUser {
        let user = DemoUser(id: nextUserID, name: name, email: email, role: role, active: true)
        nextUserID += 1
        users.append(user)
        return user
    }

    func replaceUser(_ user: DemoUser) -> Bool {
        guard let index = users.firstIndex(where: { $0.id == user.id }) else { return false }
        users[index] = user
        return true
    }

    func deleteUser(_ id: Int) -> Bool {
        guard let index = users.firstIndex(where: { $0.id == id }) else { return false }
        users.remove(at: index)
        todos.removeAll { $0.userId == id }
        return true
    }

    // MARK: Todos

    func todos(of userID: Int) -> [DemoTodo] { todos.filter { $0.userId == userID } }

    func addTodo(userID: Int, title: String) -> DemoTodo {
        let todo = DemoTodo(
            id: nextTodoID, userId: userID, title: title, done: false,
            createdAt: Self.timestamp())
        nextTodoID += 1
        todos.append(todo)
        return todo
    }

    /// Now, to the millisecond (`2026-11-22T09:05:31.986Z`): two runs never share one.
    static func timestamp() -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: Date())
    }

    // MARK: Tokens

    func issueToken(lifetime: TimeInterval) -> String {
        let token = "demo_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        tokens[token] = Date().addingTimeInterval(lifetime)
        return token
    }

    func isValid(_ token: String) -> Bool {
        guard let expiry = tokens[token] else { return false }
        return expiry > Date()
    }

    func revoke(_ token: String) {
        tokens[token] = nil
    }
}
