/// The structural differences between two JSON documents, and the patch that turns one into the other.
///
/// Object members are matched by key. Arrays are aligned so that one inserted element is one
/// insertion rather than every later element changed: by whole-element identity, or by the value of
/// ``Options/arrayKey`` (such as `id`) for arrays of objects. Numbers compare by value; `1.0` against
/// `1` is reported as ``Change/numberText(_:from:to:)``. Paths selected by ``Options/ignore`` in either
/// document are left out. Without ignores, applying ``patch`` to the first document gives the second.
public struct JSONDiff: Sendable {
    public enum Change: Hashable, Sendable {
        case added(NormalizedPath, JSON)
        case removed(NormalizedPath, JSON)
        case changed(NormalizedPath, from: JSON, to: JSON)
        /// The same number written differently (`1.0` and `1`).
        case numberText(NormalizedPath, from: String, to: String)

        public var path: NormalizedPath {
            switch self {
            case .added(let path, _), .removed(let path, _), .changed(let path, _, _), .numberText(let path, _, _):
                path
            }
        }

        public var kind: String {
            switch self {
            case .added: "added"
            case .removed: "removed"
            case .changed: "changed"
            case .numberText: "numberText"
            }
        }
    }

    public struct Options: Hashable, Sendable {
        /// Match array elements that are objects by this member (`id`), not by their whole value.
        public var arrayKey: String?
        /// Paths whose values are not compared (volatile fields such as timestamps).
        public var ignore: [JSONPath]
        /// Whether an object member only the second document has is left out, as an ignored path
        /// is: a check that accepts a document that grew (`replay --compare additive`). Elements
        /// added to an array are still changes.
        public var ignoresAddedMembers: Bool

        /// Options that match array elements by `arrayKey`, leave out `ignore`, and, with
        /// `ignoresAddedMembers`, accept members only the second document has.
        public init(arrayKey: String? = nil, ignore: [JSONPath] = [], ignoresAddedMembers: Bool = false) {
            self.arrayKey = arrayKey
            self.ignore = ignore
            self.ignoresAddedMembers = ignoresAddedMembers
        }
    }

    public let changes: [Change]
    /// RFC 6902 operations from the first document to the second.
    public let patch: JSONPatch

    public init(from old: JSON, to new: JSON, options: Options = Options()) {
        var differ = Differ(
            arrayKey: options.arrayKey, ignoresAddedMembers: options.ignoresAddedMembers,
            ignoredOld: Set(options.ignore.flatMap { $0.query(old).map(\.path) }),
            ignoredNew: Set(options.ignore.flatMap { $0.query(new).map(\.path) }))
        differ.diff(old, new, oldPath: NormalizedPath(), newPath: NormalizedPath(), pointer: [])
        changes = differ.changes
        patch = JSONPatch(differ.operations)
    }

    /// Whether the documents are the same (apart from ignored paths).
    public var isEmpty: Bool { changes.isEmpty }

    /// How many changes of each kind.
    public var counts: (changed: Int, added: Int, removed: Int, numberText: Int) {
        var counts = (changed: 0, added: 0, removed: 0, numberText: 0)
        for change in changes {
            switch change {
            case .changed: counts.changed += 1
            case .added: counts.added += 1
            case .removed: counts.removed += 1
            case .numberText: counts.numberText += 1
            }
        }
        return counts
    }
}

/// Walks two documents side by side, collecting changes and patch operations.
private struct Differ {
    let arrayKey: String?
    let ignoresAddedMembers: Bool
    let ignoredOld: Set<NormalizedPath>
    let ignoredNew: Set<NormalizedPath>
    var changes: [JSONDiff.Change] = []
    var operations: [JSONPatch.Operation] = []

    init(
        arrayKey: String?, ignoresAddedMembers: Bool, ignoredOld: Set<NormalizedPath>,
        ignoredNew: Set<NormalizedPath>
    ) {
        self.arrayKey = arrayKey
        self.ignoresAddedMembers = ignoresAddedMembers
        self.ignoredOld = ignoredOld
        self.ignoredNew = ignoredNew
    }

    mutating func diff(_ old: JSON, _ new: JSON, oldPath: NormalizedPath, newPath: NormalizedPath, pointer: [String]) {
        if ignoredOld.contains(oldPath) || ignoredNew.contains(newPath) { return }
        switch (old, new) {
        case (.object(let oldMembers), .object(let newMembers)):
            var newByKey: [String: JSON] = [:]
            for member in newMembers where newByKey[member.key] == nil { newByKey[member.key] = member.value }
            var seen = Set<String>()
            for member in oldMembers where seen.insert(member.key).inserted {
                let childOld = oldPath.appending(.name(member.key))
                let childNew = newPath.appending(.name(member.key))
                if let value = newByKey[member.key] {
                    diff(member.value, value, oldPath: childOld, newPath: childNew, pointer: pointer + [member.key])
                } else if !ignoredOld.contains(childOld) {
                    changes.append(.removed(childOld, member.value))
                    operations.append(.remove(JSONPointer(tokens: pointer + [member.key])))
                }
            }
            for member in newMembers where seen.insert(member.key).inserted {
                let childNew = newPath.appending(.name(member.key))
                guard !ignoresAddedMembers, !ignoredNew.contains(childNew) else { continue }
                changes.append(.added(childNew, member.value))
                operations.append(.add(JSONPointer(tokens: pointer + [member.key]), member.value))
            }
        case (.array(let oldElements), .array(let newElements)):
            diffArrays(oldElements, newElements, oldPath: oldPath, newPath: newPath, pointer: pointer)
        case (.number(let a), .number(let b)):
            guard a != b else { return }
            if DecimalText(a) == DecimalText(b) {
                changes.append(.numberText(newPath, from: a, to: b))
            } else {
                changes.append(.changed(newPath, from: old, to: new))
            }
            operations.append(.replace(JSONPointer(tokens: pointer), new))
        default:
            guard old != new else { return }
            changes.append(.changed(newPath, from: old, to: new))
            operations.append(.replace(JSONPointer(tokens: pointer), new))
        }
    }

    private func identity(_ element: JSON) -> Int {
        var hasher = Hasher()
        if let arrayKey, case .object = element, let key = element[arrayKey] {
            hasher.combine(1)
            hasher.combine(key)
        } else {
            hasher.combine(0)
            hasher.combine(element)
        }
        return hasher.finalize()
    }

    private mutating func diffArrays(
        _ old: [JSON], _ new: [JSON], oldPath: NormalizedPath, newPath: NormalizedPath, pointer: [String]
    ) {
        let steps = Alignment.align(old.map(identity), new.map(identity))
        // `position` is where the next element sits in the array as patched so far.
        var position = 0
        var pendingDeletes: [Int] = []
        var pendingInserts: [Int] = []

        func flushGap(_ differ: inout Differ) {
            // Within a gap, a deleted and an inserted element side by side are one element changed,
            // unless elements are matched by key (then they are different entities).
            let paired = differ.arrayKey == nil ? min(pendingDeletes.count, pendingInserts.count) : 0
            for k in 0..<paired {
                let i = pendingDeletes[k]
                let j = pendingInserts[k]
                differ.diff(
                    old[i], new[j], oldPath: oldPath.appending(.index(i)), newPath: newPath.appending(.index(j)),
                    pointer: pointer + [String(position)])
                position += 1
            }
            for i in pendingDeletes.dropFirst(paired) {
                let path = oldPath.appending(.index(i))
                if !differ.ignoredOld.contains(path) {
                    differ.changes.append(.removed(path, old[i]))
                }
                differ.operations.append(.remove(JSONPointer(tokens: pointer + [String(position)])))
            }
            for j in pendingInserts.dropFirst(paired) {
                let path = newPath.appending(.index(j))
                if !differ.ignoredNew.contains(path) {
                    differ.changes.append(.added(path, new[j]))
                }
                differ.operations.append(.add(JSONPointer(tokens: pointer + [String(position)]), new[j]))
                position += 1
            }
            pendingDeletes.removeAll()
            pendingInserts.removeAll()
        }

        for step in steps {
            switch step {
            case .match(let i, let j):
                flushGap(&self)
                if arrayKey != nil || old[i] != new[j] {
                    diff(
                        old[i], new[j], oldPath: oldPath.appending(.index(i)), newPath: newPath.appending(.index(j)),
                        pointer: pointer + [String(position)])
                }
                position += 1
            case .delete(let i):
                pendingDeletes.append(i)
            case .insert(let j):
                pendingInserts.append(j)
            }
        }
        flushGap(&self)
    }
}
