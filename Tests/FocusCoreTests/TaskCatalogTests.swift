import FocusCore
import Testing

@Suite struct TaskCatalogTests {
    let catalog = TaskCatalog(
        tasks: [
            .init(id: 1, title: "Thesis", closed: false),
            .init(id: 2, title: "Teaching", closed: false),
            .init(id: 5, title: "Groceries", closed: false),
            .init(id: 9, title: "Thermodynamics", closed: true),
        ],
        subtasks: [
            1: [.init(id: 3, title: "Chapter 2", closed: false), .init(id: 4, title: "Chapter 3", closed: false),
                .init(id: 6, title: "Bibliography", closed: false)],
        ])

    @Test(arguments: [
        ("Thesis", PathTarget.task(id: 1)), ("thesis", .task(id: 1)), ("THESIS/chapter 2", .subtask(taskID: 1, id: 3)),
        ("Thesis/Chapter 3", .subtask(taskID: 1, id: 4)), ("thes/bib", .subtask(taskID: 1, id: 6)),
        ("gro", .task(id: 5)), ("#4", .subtask(taskID: 1, id: 4)), ("#2", .task(id: 2)), ("Thesis/#6", .subtask(taskID: 1, id: 6)),
        ("Ther", .task(id: 9)), ("Thesis/", .task(id: 1)),
    ])
    func resolvesExactNamesPrefixesAndIDs(path: String, expected: PathTarget) throws {
        #expect(try catalog.resolve(path) == expected)
    }

    @Test func anAmbiguousPrefixListsTheCandidates() {
        #expect(throws: FocusError.ambiguous(path: "Thesis/Chap", candidates: ["Thesis/Chapter 2", "Thesis/Chapter 3"])) {
            try catalog.resolve("Thesis/Chap")
        }
    }

    @Test func openTasksWinOverArchivedOnesForAPrefix() throws {
        // "Th" matches Thesis (open) and Thermodynamics (archived): still ambiguous among open ones? Only one open → Thesis.
        #expect(try catalog.resolve("The") == .task(id: 1))
    }

    @Test func anUnknownNameSuggestsTheClosestOne() {
        do {
            _ = try catalog.resolve("Thesys")
            Issue.record("expected an error")
        } catch {
            #expect(error == .notFound(path: "Thesys", suggestions: ["Thesis"]))
            #expect(error.description == "no task matches 'Thesys'. Did you mean 'Thesis'? Run `focus task list` to see all.")
        }
    }

    @Test func anUnknownIDIsNotFound() {
        #expect(throws: FocusError.notFound(path: "#77", suggestions: [])) { try catalog.resolve("#77") }
    }

    @Test func pathsShowTaskAndSubtask() {
        #expect(catalog.path(of: .subtask(taskID: 1, id: 3)) == "Thesis/Chapter 2")
    }
}
