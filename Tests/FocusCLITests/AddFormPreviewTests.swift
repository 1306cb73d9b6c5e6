import ArgumentParser
import FocusCLI
import FocusCore
import FocusTestSupport
import Foundation
import Testing
import FocusStorage
import FocusTUI

/// The add form's dry run (`focus ui`, README "The full-screen view"): `task add`'s own path,
/// inside a transaction that is always rolled back.
struct AddFormPreviewTests {
    static func verdict(_ world: TestWorld, _ arguments: String...) throws -> FormVerdict? {
        let env = try world.environment(global: GlobalOptions.parse([]))
        return UIPreview.verdict(["task", "add"] + arguments, env: env, db: world.database)
    }

    @Test func workThatDoesNotFitGetsThePlannersRefusalAndNothingIsSaved() async throws {
        let world = try TestWorld(now: "2026-11-22T09:00:00Z")
        world.config = TestWorld.roundTheWeek  // a Sunday: about the form, not the working week
        await world.run("task", "add", "Thesis/Intro", "--estimate", "50m", "--due", "2026-11-22 11:00")
        let blocks = try world.database.blocks(startingFrom: world.now)
        let v = try Self.verdict(world, "Course/Essay", "--estimate", "1h", "--due", "2026-11-22 12:00")
        #expect(v?.fits == false)
        #expect(v?.sentence.hasPrefix("'Course/Essay' does not fit before its due date, Sun 22 Nov 12:00: it needs 1h of work and "
                                      + "there is only 50m of free time before then") == true)
        #expect(try world.database.catalog().tasks.map(\.title) == ["Thesis"])
        #expect(try world.database.blocks(startingFrom: world.now) == blocks)
    }

    @Test func workThatFitsSaysSoAndNamesTheBlocksItWouldMoveWithoutSavingAnything() async throws {
        let world = try TestWorld(now: "2026-11-22T09:00:00Z")
        world.config = TestWorld.roundTheWeek  // a Sunday: about the form, not the working week
        await world.run("task", "add", "Thesis/Intro", "--estimate", "50m", "--due", "2026-11-24 17:00")
        let blocks = try world.database.blocks(startingFrom: world.now)
        let v = try Self.verdict(world, "Course/Essay", "--estimate", "1h", "--due", "2026-11-22 12:00")
        #expect(v?.fits == true)
        #expect(v?.sentence == "Fits; it moves:")
        // Berlin time: the essay, due first, takes 10:00; the chapter's block goes after it.
        #expect(v?.moves == ["Thesis/Intro: Sun 22 Nov 10:00 → Sun 22 Nov 11:15"])
        #expect(try world.database.catalog().tasks.map(\.title) == ["Thesis"])
        #expect(try world.database.blocks(startingFrom: world.now) == blocks)
        // The dry run left nothing behind: the same add saves.
        #expect(await world.run("task", "add", "Course/Essay", "--estimate", "1h", "--due", "2026-11-22 12:00") == 0)
    }

    /// The edit form's dry run: `task edit`'s own update and re-plan, rolled back.
    @Test func anEditThatNoLongerFitsGetsThePlannersRefusalAndOneThatFitsNamesTheMovesNothingSaved() async throws {
        let world = try TestWorld(now: "2026-11-22T09:00:00Z")
        world.config = TestWorld.roundTheWeek  // a Sunday: about the form, not the working week
        await world.run("task", "add", "Thesis/Intro", "--estimate", "50m", "--due", "2026-11-24 17:00")
        await world.run("task", "add", "Course/Essay", "--estimate", "1h", "--due", "2026-11-24 17:00")
        let env = try world.environment(global: GlobalOptions.parse([]))
        let blocks = try world.database.blocks(startingFrom: world.now)
        let id = try #require(try world.database.catalog().resolve("Course/Essay").subtaskID)
        let essay = try world.database.subtask(id: id)
        let tooSoon = UIPreview.verdict(["task", "edit", "Course/Essay", "--due", "2026-11-22 10:30"], env: env, db: world.database)
        #expect(tooSoon?.fits == false)
        #expect(tooSoon?.sentence.contains("does not fit before its due date") == true, "\(tooSoon?.sentence ?? "no verdict")")
        let sooner = UIPreview.verdict(["task", "edit", "Course/Essay", "--due", "2026-11-22 12:00"], env: env, db: world.database)
        #expect(sooner?.fits == true)
        #expect(try world.database.blocks(startingFrom: world.now) == blocks, "nothing saved")
        #expect(try world.database.subtask(id: id) == essay, "the subtask is as it was")
        let titleOnly = UIPreview.verdict(["task", "edit", "Course/Essay", "--title", "Paper"], env: env, db: world.database)
        #expect(titleOnly == nil, "a change the planner does not read has no verdict")
    }

    @Test func aDraftWithoutEstimateOrDueSaysWhatTheVerdictNeedsAndABadValueSaysWhy() async throws {
        let world = try TestWorld(now: "2026-11-22T09:00:00Z")
        world.config = TestWorld.roundTheWeek  // a Sunday: about the form, not the working week
        let open = try Self.verdict(world, "Course/Essay", "--estimate", "1h")
        #expect(open?.fits == nil)
        let bad = try Self.verdict(world, "Course/Essay", "--estimate", "1x", "--due", "fri")
        #expect(bad?.fits == false)
        #expect(bad?.sentence.contains("1x") == true)
        #expect(try world.database.catalog().tasks.isEmpty)
    }
}

