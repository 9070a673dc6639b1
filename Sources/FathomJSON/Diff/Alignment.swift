/// Aligns two sequences of element identities: a longest common subsequence where it is cheap to
/// find exactly, anchored on elements unique to both sides where it is not.
enum Alignment {
    enum Step: Equatable {
        case match(Int, Int)
        case delete(Int)
        case insert(Int)
    }

    /// Gaps up to this many cells are aligned exactly (LCS by dynamic programming).
    static let exactLimit = 4_000_000

    static func align(_ a: [Int], _ b: [Int]) -> [Step] {
        var steps: [Step] = []
        steps.reserveCapacity(max(a.count, b.count))
        align(a, 0..<a.count, b, 0..<b.count, into: &steps)
        return steps
    }

    private static func align(_ a: [Int], _ ra: Range<Int>, _ b: [Int], _ rb: Range<Int>, into steps: inout [Step]) {
        var lowA = ra.lowerBound
        var lowB = rb.lowerBound
        var highA = ra.upperBound
        var highB = rb.upperBound
        // Common prefix and suffix: the in-order fast path.
        while lowA < highA, lowB < highB, a[lowA] == b[lowB] {
            steps.append(.match(lowA, lowB))
            lowA += 1
            lowB += 1
        }
        var suffix: [Step] = []
        while lowA < highA, lowB < highB, a[highA - 1] == b[highB - 1] {
            highA -= 1
            highB -= 1
            suffix.append(.match(highA, highB))
        }
        if lowA == highA {
            for j in lowB..<highB { steps.append(.insert(j)) }
        } else if lowB == highB {
            for i in lowA..<highA { steps.append(.delete(i)) }
        } else if (highA - lowA) * (highB - lowB) <= exactLimit {
            exact(a, lowA..<highA, b, lowB..<highB, into: &steps)
        } else {
            anchored(a, lowA..<highA, b, lowB..<highB, into: &steps)
        }
        steps.append(contentsOf: suffix.reversed())
    }

    /// LCS by dynamic programming over the gap.
    private static func exact(_ a: [Int], _ ra: Range<Int>, _ b: [Int], _ rb: Range<Int>, into steps: inout [Step]) {
        let n = ra.count
        let m = rb.count
        var table = [Int32](repeating: 0, count: (n + 1) * (m + 1))
        for i in stride(from: n - 1, through: 0, by: -1) {
            for j in stride(from: m - 1, through: 0, by: -1) {
                table[i * (m + 1) + j] =
                    a[ra.lowerBound + i] == b[rb.lowerBound + j]
                    ? table[(i + 1) * (m + 1) + j + 1] + 1
                    : max(table[(i + 1) * (m + 1) + j], table[i * (m + 1) + j + 1])
            }
        }
        var i = 0
        var j = 0
        while i < n, j < m {
            if a[ra.lowerBound + i] == b[rb.lowerBound + j] {
                steps.append(.match(ra.lowerBound + i, rb.lowerBound + j))
                i += 1
                j += 1
            } else if table[(i + 1) * (m + 1) + j] >= table[i * (m + 1) + j + 1] {
                steps.append(.delete(ra.lowerBound + i))
                i += 1
            } else {
                steps.append(.insert(rb.lowerBound + j))
                j += 1
            }
        }
        while i < n {
            steps.append(.delete(ra.lowerBound + i))
            i += 1
        }
        while j < m {
            steps.append(.insert(rb.lowerBound + j))
            j += 1
        }
    }

    /// Patience alignment: elements occurring once on each side, kept in an increasing order, are
    /// anchors; the gaps between anchors are aligned recursively.
    private static func anchored(_ a: [Int], _ ra: Range<Int>, _ b: [Int], _ rb: Range<Int>, into steps: inout [Step]) {
        var countA: [Int: Int] = [:]
        var countB: [Int: (count: Int, index: Int)] = [:]
        for i in ra { countA[a[i], default: 0] += 1 }
        for j in rb {
            let entry = countB[b[j]]
            countB[b[j]] = (count: (entry?.count ?? 0) + 1, index: j)
        }
        var candidates: [(Int, Int)] = []
        for i in ra where countA[a[i]] == 1 {
            if let entry = countB[a[i]], entry.count == 1 { candidates.append((i, entry.index)) }
        }
        let anchors = longestIncreasing(candidates)
        guard !anchors.isEmpty else {
            // Nothing to anchor on: take the elements side by side.
            for i in ra { steps.append(.delete(i)) }
            for j in rb { steps.append(.insert(j)) }
            return
        }
        var previousA = ra.lowerBound
        var previousB = rb.lowerBound
        for (i, j) in anchors {
            align(a, previousA..<i, b, previousB..<j, into: &steps)
            steps.append(.match(i, j))
            previousA = i + 1
            previousB = j + 1
        }
        align(a, previousA..<ra.upperBound, b, previousB..<rb.upperBound, into: &steps)
    }

    /// The longest subsequence of pairs (ordered by first) whose second components increase.
    private static func longestIncreasing(_ pairs: [(Int, Int)]) -> [(Int, Int)] {
        var tails: [Int] = []  // indexes into pairs
        var previous = [Int](repeating: -1, count: pairs.count)
        for (index, pair) in pairs.enumerated() {
            var low = 0
            var high = tails.count
            while low < high {
                let mid = (low + high) / 2
                if pairs[tails[mid]].1 < pair.1 { low = mid + 1 } else { high = mid }
            }
            if low > 0 { previous[index] = tails[low - 1] }
            if low == tails.count { tails.append(index) } else { tails[low] = index }
        }
        var result: [(Int, Int)] = []
        var index = tails.last ?? -1
        while index >= 0 {
            result.append(pairs[index])
            index = previous[index]
        }
        return result.reversed()
    }
}
