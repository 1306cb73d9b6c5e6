import FoundationEssentials

/// The hook calls a run of sessions makes, with the JSON each hook reads on standard input.
/// The runner posts them like notices: off the tick path, after the work is recorded.
package struct SessionHooks: Sendable {
    package var runner: any HookRunner
    package var task: String
    package var subtask: String?
    /// The planned block the run works on, if any.
    package var blockID: Int64?

    package init(runner: any HookRunner, task: String, subtask: String?, blockID: Int64? = nil) {
        self.runner = runner
        self.task = task
        self.subtask = subtask
        self.blockID = blockID
    }

    /// The hook for one event, given the log id it was recorded as (work sessions), the engine
    /// after the event's batch and the wall-clock moment of the batch.
    package func call(for event: EngineEvent, recordedAs id: Int64?, engine: CountdownEngine, at now: Date) -> (HookEvent, JSON)? {
        switch event {
        case let .workEnded(record):
            // An open session ends by being stopped, as planned: it is finished work, not left early.
            let hook: HookEvent = record.status == .interrupted ? .sessionInterrupted : .sessionCompleted
            return (hook, .object([
                ("event", .string(hook.rawValue)),
                ("id", .optional(id)),
                ("task", .string(task)),
                ("subtask", .optional(subtask)),
                ("start", .string(Timestamp.utc(record.startedAt))),
                ("end", .string(Timestamp.utc(record.endedAt))),
                ("focused_seconds", .int(record.focusedSeconds)),
                ("planned_seconds", record.status == .open ? .null : .int(record.plannedSeconds)),
                ("status", .string(record.status.rawValue)),
                ("block_id", .optional(blockID)),
                ("completed_in_run", .int(engine.completedWorkSessions)),
                ("focused_seconds_in_run", .int(engine.focusedSecondsRecorded)),
            ]))
        case let .breakEnded(phase, cycle):
            return (.breakOver, .object([
                ("event", .string(HookEvent.breakOver.rawValue)),
                ("task", .string(task)),
                ("subtask", .optional(subtask)),
                ("phase", .string(phase.rawValue)),
                ("cycle", .int(cycle)),
                ("end", .string(Timestamp.utc(now))),
                ("next_work_seconds", .int(engine.plan.workSeconds)),
                ("block_id", .optional(blockID)),
            ]))
        default:
            return nil
        }
    }

    /// The `block-starts` payload `focus daemon` sends as a planned block begins.
    package static func blockStarts(_ block: ReminderBlock) -> JSON {
        .object([
            ("event", .string(HookEvent.blockStarts.rawValue)),
            ("block_id", .int(Int(block.id))),
            ("task", .string(block.task)),
            ("subtask", .optional(block.subtask)),
            ("start", .string(Timestamp.utc(block.start))),
            ("end", .string(Timestamp.utc(block.end))),
            ("planned_seconds", .int(Int(block.end.timeIntervalSince(block.start).rounded()))),
        ])
    }
}
