// The text of each `focus help TOPIC`, the one home of the reference the README points to
// (README: "Reference in the terminal"). The manual page prints the same text, one section
// a topic (ManPageRenderer). Plain text within 80 columns: paragraphs, `- ` lists, examples
// indented four spaces, and sub-headings underlined with `-`.

extension HelpTopic {
    package static let all: [HelpTopic] = [
        HelpTopic(
            name: "sessions", title: "Sessions",
            summary: "the countdown, its marks, open sessions, continue",
            commands: ["start", "continue", "stop", "pause", "resume", "log", "status"],
            text: #"""
The marks, wherever sessions are listed (`focus log`, `agenda`, the day
summary): ✓ completed (the countdown reached 0:00), ✗ interrupted (left early,
with the time really focused), ↑ open (a stopwatch from `focus start --open`,
counting up until `focus stop`); the countdown's last line marks an open
session it recorded with ■. `focus log --help` says the same.

Open sessions, and picking up where you left off
------------------------------------------------

`focus start PATH --open` counts up with no planned length, as Timewarrior and
Watson do, until `focus stop` (or q or Ctrl-C in its terminal) ends it; space
pauses it as it would a countdown. Stopping is a stopwatch's normal end:
nothing asks why (a countdown left early asks). It is recorded with status
`open`: neither completed nor interrupted, so its time counts in every total
(`stats`, `report`, `agenda`, `status {today}`) and it is left out of every
completion count and rate. `focus log --json` and the interchange formats write
`"status": "open"` and `"planned_seconds": null` (an empty field in CSV);
importing reads them back, and sync carries the status to the other machine. A
session stopped without its process (killed, a crash) is recovered as open
too. `--open` with `--duration`, `--break`, `--long-break`, `--cycles`,
`--count` or `--no-break` is refused (exit 64).

`focus continue` starts the task or subtask of the session that ended last
again, with the options of `focus start` (`--duration 50m`, `--open`, …). With
no session recorded yet it says `nothing to continue: no session recorded yet`
(exit 64).

`focus log rm --subtask PATH --all` deletes every session of a subtask (a
task's path: of the task and its subtasks) in one transaction. On a terminal
it asks first (`Delete 12 sessions of Thesis/Chapter 2 (5h 20m)? [y/N]`);
elsewhere it needs `--force` (without, exit 64). It is refused while a running
session records that work (exit 69), and today's backup is made before it
deletes if there is none yet, so `focus restore` can bring the sessions back.
"""#),
        HelpTopic(
            name: "tasks", title: "Tasks and paths",
            summary: "naming work, the views of it, archiving",
            commands: ["task"],
            text: #"""
Paths name work: `Thesis` (a task), `Thesis/Chapter 2` (a subtask), a unique
case-insensitive prefix of either part (`thes/ch2` is not a prefix,
`thes/chapter 2` is), or `#ID` (task and subtask ids never collide). Deleting
needs the whole name or `#ID`. Titles are stored and compared in Unicode NFC,
so `été` typed with composed or decomposed accents is one task; a title that
looks like an id (`#12`, `#0012`, ` #7`) is refused everywhere a title enters
(`task add`, `task edit --title`, `import`), since `#ID` would shadow it.

Views of the work. `focus task list` puts the task due soonest first (the
nearest due date of its open subtasks; tasks with none after them, by title);
`--sort title`, or `--sort progress` for the least done first (focus logged
over the estimates of the open subtasks, each counted up to its estimate;
tasks with no estimated open work last). `--search TEXT` keeps a task whose
title or notes hold the text (any case, accents however typed) and otherwise
only its subtasks that do; `--due-before DATE` keeps open subtasks due by the
end of that local day and `--at-risk` those at risk or overdue, each showing a
task only with its matching subtasks. Filters combine, and `--json` lists the
same tasks in the same order. `focus task show PATH` lists the work's blocks
(upcoming ones soonest first, then earlier ones latest first, 20 of each) and
its sessions newest first (the newest 20, and how many more); for a task,
those of all its subtasks and its own. Its `--json` adds every one of them:
`blocks` by start, as `focus plan --json` writes them, and `sessions` newest
first, as `focus log --json` does. `focus task done TASK` archives a task;
when that would close open subtasks that still have planned blocks ahead, it
names them and their planned time and archives only with `--force` (exit 64
without; `--undo` reopens).
"""#),
        HelpTopic(
            name: "dates", title: "Dates, times, durations and zones",
            summary: "every form a date, time or duration takes",
            commands: [],
            text: #"""
Durations: `25m`, `1h30m`, `90s`, `1.5h`, or a bare number of minutes (never
negative: `--estimate -5m` is refused as negative, exit 64). Times of day
(`--earliest`, `day_start`, `day_end`, `summary_time`, and each end of
`hours.mon` … `hours.sun`) as people say them: `09:00`, `21:00`, `9am`,
`9:30pm`, `12pm` (noon), `12am` (midnight), `noon`, `midnight`, or a bare hour
on the 24-hour clock (`9`, `21`); working hours `9am-5pm` as well as
`09:00-17:00`, an end at midnight meaning the day's end (`6pm-midnight` is
`18:00-24:00`). They are stored and shown as `HH:MM`. Other forms (`930`,
`9.30`, `13pm`) are refused with the list of those that work (exit 64).
Date-times `2026-11-22 17:00` (local) or ISO 8601 with an offset. Wherever a
date or a date-time is taken (`--due`, `--start`, `--from`/`--to`,
`--due-before`, `agenda DATE`, `log add`/`log edit`, `config set off`), days
may also be said as people say them:

- Form: Means (today Wednesday 2026-11-25)
- `2026-11-27`, `today`, `tomorrow`, `yesterday`: that day
- `fri`, `friday`, `this fri`: the first Friday on or after today (today, on a
  Friday)
- `next fri`: the first Friday after today (a week on, on a Friday)
- `last fri`: the last Friday before today
- `in 3 days`, `in 2 weeks`, `in a month`, `3 days ago`: days, weeks or months
  from today (Jan 31 in 1 month: Feb 28)
- `end of week`, `end of month`, `end of year`: Sunday (weeks end on Sunday),
  the month's or year's last day
- any of these + a time: `fri 17:00`, `monday 9am`, `tomorrow at 9:30pm`, `sun
  noon`: that day at that time; a time alone (`17:00`, `5pm`) is today

Weekdays read as GNU `date -d` reads them. Other forms (`next week`, `fri 17`)
are refused with the list of those that work (exit 64). `config set off`
stores the date a form names. A date without a time means the whole day: as a
due date, the end of that day. A local time that does not exist (the
spring-forward gap) is moved forward by the gap and one that happens twice
takes the first; focus says so when it happens.

Every command takes `--db PATH` (or env `FOCUS_DB`) and `--tz ZONE` (an IANA
name from the zone database; default `TZ` — a name, `:name`, a zone file's
path or a POSIX rule such as `CET-1CEST,M3.5.0,M10.5.0/3` — else the system
zone, `/etc/localtime`). Zones are read from `/usr/share/zoneinfo` (Debian's
`tzdata`; `$TZDIR` overrides). `FOCUS_NOW` (an ISO 8601 instant) makes a
command act as if it started at that moment, time running on from there — for
scripts and what-if planning.
"""#),
        HelpTopic(
            name: "planning", title: "Planning",
            summary: "how focus plan places work, recurring work",
            commands: ["plan", "agenda"],
            text: #"""
`focus plan` places each open subtask's remaining work (estimate minus focus
logged) into the free time of your working hours before its due date, as early
as possible, in blocks no longer than its attention span, a break apart.

- A working week by default. Monday to Friday 09:00–17:00 (`day_start`,
  `day_end`), Saturday and Sunday off (`hours.sat`, `hours.sun`), and `lunch`
  (12:00–13:00) kept free every working day; at most `max_per_day` (4h) of one
  subtask on one day. Every one of them can be changed (`focus config set
  hours.sat 10:00-14:00`, `lunch off`, `max_per_day none`).
- The Pomodoro rhythm. Blocks are a short break (`short_break`, 5m) apart, and
  after `cycles` (4) blocks in a row, each a short break from the next, the
  next block waits a long break (`long_break`, 15m); lunch, a meeting or the
  end of the day count as a long break. Blocks begin and end on 5-minute marks
  (`10:30–10:55`, never `10:29` or seconds): the work planned is the remaining
  work rounded up to 5 minutes.
- A plan that holds still. A block whose start has passed without a session is
  starting for 10 minutes: re-plans keep its place and its number, so `focus
  daemon` reminds you of it once. Not started by then, it is missed: it stays
  where it was, its time is spent, and its work is planned again after it,
  once. A block a re-plan moves within its day keeps its number (a published
  event is moved, not replaced) and is reminded of again at its new time.

- Work due first gets the time first. Work goes by the local day it is due;
  among work due the same day, `--priority high` before `normal` (the default)
  before `low`; then the earlier due time. Work that cannot fit before its due
  date is at risk: it never takes time that work which fits needs, but work
  due later that has room elsewhere gives up its earlier time to it (15 free
  minutes tonight go to the essay due tomorrow morning, not to the book due
  next week, which is planned after). The plan lists what is at risk, how much
  free time it has and who competes for it; `task add`/`edit` refuse such work
  unless `--force`. An edit of work already at risk that makes nothing worse
  (it lacks no more time than before, and nothing else is pushed out;
  `--max-per-day 3h` where it was `2h`) is saved without `--force`, with a
  warning.
- A daily cap. `--max-per-day 2h` on a subtask (or `max_per_day` in the
  config, for subtasks without their own; `--max-per-day none` clears it)
  plans at most that much of it on one local day, counting focus already
  logged for it that day, so a 40 h book is spread over the weeks before it is
  due instead of filling the first days. When the cap is what keeps work from
  fitting (the time the other work leaves would hold it without the cap, or
  the cap alone keeps all the time before its due date from holding it),
  `plan` says so ("held to 2h a day by its daily cap"; `cap_seconds` in `plan
  --json`), and so does the refusal.
- Buffers. `buffer` (default `0m`, at most `4h`) keeps that much free time
  before and after every timed calendar event, so a block never starts the
  minute a meeting ends. All-day events get none (they fill their days
  already), and neither do focus's own blocks and the running session, which
  keep the break between them. The agenda's "Free in working hours" leaves the
  buffers out as the planner does.

`focus task show` names a subtask's priority and cap; `task list --json` has
`"priority"` and `"max_per_day_seconds"` for each subtask.

Recurring work. `focus task add "Admin/Weekly review" --estimate 1h --every
week --on fri` makes a series: `--every day`, `weekdays` (Monday to Friday),
`week` (Monday to Sunday) or `month`; `--on` names the weekday of a week
(`fri`) or the day of a month (`15`; in a shorter month, its last day) the
work is due. Without `--on` it is due on the period's last day. Each period
gets an instance of its own, starting on the period's first day and due at the
end of its due day, planned like any other subtask (estimate, span, earliest
time, priority and cap are the series', `--start` the day the series begins).
The current period's instance and the next one are made as the plan is made; a
done instance leaves the next in place, and a missed one (its due day over,
not done) is never planned or shown as overdue: the next period's is there to
plan. A series is never due itself: `--due` with `--every` is refused, as is
`--every` on a task.

`task list` shows a series once, as its current instance (the earliest one not
done whose due date is ahead): `Weekly review  20m / 1h  33%  next due Fri 27
Nov (in 2 days) · every week on Fri`; `task list --json` adds `"every"`,
`"on"` (`"fri"`, `"15"` or `null`) and `"instance_id"`, its `"due"` and
`"logged_seconds"` being the instance's. `focus start`, `log add` and `task
done` on the series act on its current instance (`task done --undo` reopens
the last one done; a session `log add` records from an earlier period goes to
that period's instance, or, where none was made, to the series itself with a
note); `task edit` on the series changes its instances not yet done, and
`--every`/`--on` change the rule from the current period on (open instances
without logged time go, the new rule's come); `task rm` removes the series
with its instances (`--force` when they hold sessions). Instances are named
`Weekly review · 2026-11-27` (their due day) in the plan, the agenda and the
log; `stats` counts their time under the series. With sync, the rule travels
with the series (`X-FOCUS-EVERY`, `X-FOCUS-ON`) and each instance is named
from its series and period, so the instance two machines make for one week is
one.
"""#),
        HelpTopic(
            name: "calendars", title: "Your real calendar",
            summary: "import, feeds, CalDAV accounts, publishing the plan",
            commands: ["calendar"],
            text: #"""
Most calendar services publish a calendar as an iCalendar feed: an address
that always serves its current `.ics`. Subscribe to it once; `focus daemon`
refreshes it every `calendar_refresh` (15 minutes), and `focus calendar
refresh` does it now:

  focus calendar subscribe \
      'https://calendar.google.com/calendar/ical/…/private-…/basic.ics' \
      --name Work
  # every subscribed calendar; `focus calendar refresh Work` for one
  focus calendar refresh
  # when each was last fetched, and the last error if any
  focus calendar list

- Google Calendar: Settings → the calendar → Integrate calendar → Secret
  address in iCal format.
- Outlook / Microsoft 365: Settings → Calendar → Shared calendars → Publish a
  calendar → the ICS link.
- Nextcloud: the calendar's ⋯ menu → Share link → Copy subscription link;
  Fastmail: Settings → Calendars → the calendar → Share → the iCal
  (`webcal://`) link.
- School timetables and other services that give a `webcal://` or `.ics` link.

`webcal://` is read as `https://`. Plain `http://` is refused except to this
machine (`localhost`, `127.0.0.1`, `[::1]`) unless you pass `--insecure`. Such
an address is a password (anyone with it reads the calendar): messages and
`calendar list` show only its host (and a password typed in an address is
shown as `…`), and `calendar list --json` its whole `source` for scripts.
Feeds that need a login are not supported yet.

The feed is read exactly as `calendar import` reads a file (the same leniency
and warnings) and its busy time stored the same way; the plan follows.
`refresh` sends the `ETag` and `Last-Modified` it was given back
(`If-None-Match`, `If-Modified-Since`), so an unchanged calendar costs one
small request and changes nothing. A failed fetch never loses a calendar: when
the server is down or unreachable, fails (5xx), refuses (401, 403, 404), does
not answer in time, fails TLS verification, redirects too often, from https
down to http, to another scheme or to plain http elsewhere (exit 69,
"redirected to an address focus does not follow"), or sends a web page (a
login page), something that does not parse or more than 32 MB (exit 65), the
last good copy stays in use, the error is one line naming the calendar and the
age of the copy kept, and `calendar list` shows it under the calendar until a
fetch succeeds. A feed, or a calendar of a connected CalDAV account, that
comes back with no events while the copy kept has some (a proxy's or a
server's maintenance answer) is kept aside with a warning (exit 0, the copy
stays; `calendar list` and `doctor` name it); `focus calendar refresh NAME
--accept-empty` takes the empty calendar. Refreshing several calendars
refreshes each; one warning per failure, then one error line. Limits: connect
10 s, whole request 60 s, 32 MB, 5 redirects. TLS is verified against the
system's certificate store (Debian's `ca-certificates`); `--ca-file PATH` (a
PEM file, remembered for refreshes) trusts a private CA instead.
`https_proxy`, `http_proxy` and `no_proxy` are honoured. Feeds use libcurl
(Debian's `libcurl4`), loaded only by `subscribe` and `refresh`, so no other
command starts slower or takes more memory; without it they fail with one
line, exit 69.

Kept current. `focus daemon` refreshes every subscribed and connected calendar
whose copy is older than `calendar_refresh` (default `15m`; `off` stops it)
when it starts and then at each interval, beside its reminders (a server that
hangs delays none). When busy time changed it re-plans, and a desktop
notification says what moved — `Thesis/Chapter 2 moved 14:00 → 16:00: new
event 'Supervisor meeting'` (`changed event` for one that was there before;
the days too when a block moved to another day) — or what is now at risk
(`Report/Draft is now at risk: needs 2h, 1h free before Tue 1 Dec 12:00`), at
most three notices and then a count. A copy whose last refresh failed, or that
is older than twice `calendar_refresh`, is named on the first line of `agenda`
(and in its `--json` as `stale_calendars`), by `calendar list --json`
(`"stale": true`) and by `doctor` (a failed refresh is a problem there).

A CalDAV account: read it live, publish the plan into it
--------------------------------------------------------

Nextcloud, Fastmail, iCloud, mailbox.org, Radicale, Baïkal and most other
calendar servers speak CalDAV (RFC 4791). Connect the account once; focus
finds its calendars (RFC 6764: the address you give, else its
`/.well-known/caldav`; then `current-user-principal` and `calendar-home-set`),
lists them, and reads those that count as busy time:

  focus calendar connect https://cloud.example.org/remote.php/dav --user me \
  # Nextcloud, an app password
        --password-command 'pass show nextcloud/focus'
  focus calendar connect https://caldav.fastmail.com/ --user me@fastmail.com \
  # Fastmail, an app password
        --password-command 'secret-tool lookup service fastmail'
  focus calendar connect https://caldav.icloud.com/ --user me@icloud.com \
      --calendar Home \
  # iCloud, an app-specific password
        --password-command 'pass show icloud-app-password'
  pass show nextcloud/focus | focus calendar connect \
      https://cloud.example.org/remote.php/dav \
        --user me --password-stdin                                # scripts
  # the plan, into a calendar of the account
  focus calendar publish 'Focus plan'

The login goes only to the server you connect at (`focus help promises`):
iCloud answers at `caldav.icloud.com` with an account on a server of its own
(`pNN-caldav.icloud.com`), so the first connect says which and prints the line
that connects there directly. The user name may also be given in the address
(`https://me@cloud.example.org/remote.php/dav` is `--user me`); a password in
an address is refused. `--calendar NAME` (repeatable; the calendar's display
name or the last part of its address) picks the calendars that count as busy;
without it, every calendar of the account that holds events does (a to-do list
never; a scheduling inbox or outbox, RFC 6638, never; nor the calendar focus
publishes the plan into, at connect or at any refresh after `publish`, unless
you name it with `--calendar`; nor the calendar another machine syncs focus's
history through: before `focus sync setup` on this machine, connect lists it
as that machine's history, not busy time). Each is listed by `calendar list`
and removed by `calendar rm` like any other. A name another calendar already
has gets the server's host after it (`Work (cloud.example.org)`), as does one
added or renamed there later: a calendar here is never replaced by one of the
account. An iCalendar address (`https://host/team.ics`) given to `connect` is
named a feed, with the `focus calendar subscribe` line that reads it (exit
64).

The calendars that count are the ones the account has now. `focus calendar
refresh` (and the daemon) lists each connected account's calendars again (one
request) by the rule of `connect`: a calendar made there since is read and
counts (with `--calendar` given at connect, only the calendars of those
names), one deleted there stops counting, and one line says so (`Account at
https://cloud.example.org/…: calendar Travel added, calendar Old removed.`);
`calendar list` shows what the last refresh added and removed. A calendar you
removed with `calendar rm` stays out until you `connect` again (a new choice).
Accounts connected before focus remembered the choice only lose calendars;
`connect` again to have new ones read.

Meetings you declined are free time. An event where you are an attendee who
declined (`ATTENDEE;PARTSTAT=DECLINED:mailto:you@…`) takes no time from
planning; one you have not answered or accepted tentatively stays busy unless
`focus config set tentative_busy false`. Your addresses are `focus config set
email you@example.org,you@work.example` and every connected account's own (its
`calendar-user-address-set`, found at connect): imported files, feeds and
connected calendars all know you by all of them, and so does the planner when
it reads busy time past the stored months. A change of them (`config set
email`, `config set tentative_busy`, or one arriving by sync) reads every
stored calendar again under the new rule at once: it counts from the next
re-plan, without waiting for the server's calendar to change. The agenda still
shows a declined meeting, marked `(declined: free)` (in `--json`, under
`declined_events`).

Servers focus is tested against. Connect, refresh, publish and sync are each
tested against Radicale (https://radicale.org) and Xandikos
(https://www.xandikos.org) (started on loopback by
`scripts/servers/caldav-server.py [--xandikos]`; the rest of the CalDAV tests
against Radicale); DAViCal's ways are modes of the tests' in-memory server.
Where they differ:

- : Radicale; Xandikos; DAViCal
- first sync of a long history: one PUT of the whole calendar; one PUT per
  item; one PUT per item (no ETag on a collection)
- calendar home: `/USER/`; `/USER/calendars/`; `/caldav.php/USER/`
- scheduling inbox / outbox: —; —; `.in/`, `.out/` listed as calendars (named
  by the principal's `schedule-inbox-URL`, `schedule-outbox-URL`): left out
- display names: as written; as written; XML references escaped once more
  (`Work &amp; Life`): decoded
- login over plain `http://`: Basic; none of its own (a proxy in front does
  it); Basic, Digest

A MKCALENDAR refused because something is there names it (`a calendar named
'Old plans' is at …/focus-plan/; name it to use it`).

Where items go one per request (a sync's items, a publication's events), focus
sends several at once (up to 8) while the server keeps up, one at a time where
it does not (Xandikos); a 503 or 429 halves it, `Retry-After` waited (seconds,
or an HTTP-date in the years 1–9999; anything else counts as none), and after
a stretch of answers without one it widens again, never again to a width
pushed back at twice.

Passwords are never stored and never appear in a process's arguments.
`--password-command` (remembered with the account, as its `password_command`)
is run each time focus needs the password, without a shell: its words are
split as a shell would split them (quotes and backslashes), nothing is
expanded, the program is found on `PATH`, its first line of output is the
password once it has exited (a program it leaves running, such as an agent,
does not hold focus up), and it may ask for a passphrase on the terminal,
which it has while it runs (60 s; then it is stopped with everything it
started). It runs only if you set it on this machine (`focus help promises`: a
database from elsewhere does not bring one in). Otherwise `--password-stdin`
reads the first line of standard input (for `connect`, `refresh` and
`publish`), or focus asks on the terminal. Use an app password where the
service offers one. Basic and Digest authentication; the same TLS rules,
limits and `--ca-file`/`--insecure` as feeds (plain `http://` only to this
machine unless `--insecure`).

Reading: a calendar whose server reports a sync token is kept current with
`sync-collection` (RFC 6578): an unchanged calendar costs one small request, a
changed one fetches only the events that changed (`calendar-multiget`), and a
token the server no longer accepts starts over with the whole calendar. A
server that forgets a token without saying so (DAViCal prunes them after 7
days and answers with every member as `200 OK`) is checked as sync checks it:
a refresh whose last read is older than three days, or whose answer lists
nearly every stored event unchanged, compares with a listing of the calendar,
so a meeting deleted meanwhile stops counting. Other servers are read with a
time-range `calendar-query` over the planning window, skipped while the
calendar's `getctag` is unchanged. Every event goes through the same reader
and leniency rules as `calendar import`. A failed refresh keeps the copy in
use, as for feeds.

Publishing: `focus calendar publish CALENDAR [--sessions]` writes every
planned block still ahead into CALENDAR (made when the account has none of
that name and the server allows it): summary `Task/Subtask`,
`CATEGORIES:focus`, opaque (busy), the subtask's notes as description. After
that every command that changes the plan (`task add/edit/done/rm`, `log add`,
`sync`, `calendar connect`, `calendar refresh`, `plan`, `config set`, …)
publishes the change before it exits, and the daemon within seconds of a
change: a moved block's event is updated (`If-Match` on the ETag focus was
given), a block that went is deleted, a block that has ended stays as the
record of the day, and only what changed is written (a change that leaves the
plan as it was costs no request). Offline, the command still succeeds, says
the plan waits, and the next publication (the next command's or the daemon's)
writes it. `--sessions` also publishes the sessions worked (as `export
--format ics` writes them, transparent, from 14 days back).

Each publication first reads what changed in the calendar since the last one
(`sync-collection`, RFC 6578: one small request when nothing did), so what it
says is true of the server:

- A block ahead deleted in another app means "not in this slot": deleting is
  how a calendar app says "not then". The work is planned elsewhere, that slot
  stays free of it until its day ends, and the next command says so once
  (`note: Thesis/Draft: not at Wed 25 Nov 14:25 (deleted in the calendar);
  planned Thu 26 Nov 09:00.`). A calendar deleted in another app is made
  again, with every block in it, and so is one emptied of every block ahead at
  once. Another event of focus's deleted there (a session's) is written again
  ("1 written again"); so is one deleted between focus's look and its write:
  servers answer a conditional write to a member that no longer exists with
  412 (RFC 7232, section 3.1; DAViCal and Radicale do) rather than 404, and
  focus checks the calendar's listing.
- A write whose answer was lost is not written twice. When the server stored a
  new event but its answer never came (a connection cut after the server
  wrote, a timeout, a proxy), the write sent again finds its place taken (412
  to `If-None-Match: *`). focus then reads what is there: its own event for
  that block (the same UID, `X-FOCUS-BLOCK`, this focus's `X-FOCUS-PUBLISHER`)
  is followed from then on like any other it wrote (written over, `If-Match`,
  where it differs from what focus writes). A publication that failed on such
  a lost answer (the write sent alone) says so, and the next one follows the
  event in the same way, without writing it again. Only an event that is not
  this focus's is left as it is, with a warning (`'Thesis/Draft' was not
  written: another event is at its place`).
- A block dragged to another time is your choice: focus pins it there
  (`Thesis/Draft is pinned at Wed 25 Nov 14:00, where it was moved in the
  calendar`). The planner plans around it and counts it against the subtask's
  estimate, and the event is not written over, until you move it again (pinned
  at the new time) or `focus plan --unpin [PATH]` hands the pinned blocks of
  PATH (all, without PATH) back to the planner. A pinned block of work that is
  done or removed goes.
- An event of focus's edited in another way (its summary, description or
  location changed, made all-day) is left as it is, with one warning
  (`'Thesis/Draft' was changed in the calendar: left as it is`), whatever the
  plan does next; delete it there and focus writes it again. Before every
  write focus compares what it wrote with what the calendar holds, on every
  server; an edit made while focus is writing (between its look and its
  write) is left the same way, with one warning.
- One writer at a time. Two focus processes of one database that change the
  plan at once (a countdown ending, `focus stop` in another terminal) publish
  one after the other (a lock beside the database,
  `focus.sqlite.publish.lock`): the second finds the first's writes and says
  nothing about them.

One calendar, one plan. Each event carries `X-FOCUS-PUBLISHER`, a random name
this database's focus gave itself, and the host it ran on. Blocks are named
after the work: the subtask's sync name once sync is set up
(`focus-block-<name>-<YYYYMMDD>-<n>@focus`, the same block the same UID on
every machine), else this publisher's name and the subtask's local id, which
no other machine uses. Two machines never both write a calendar: publishing
into one that holds blocks ahead that another machine's focus published is
refused, exit 69 (`calendar 'Focus plan' holds the plan that focus on desktop
publishes … one calendar holds one plan`), and nothing is written there. Two
machines that were both publishing into one calendar (both began before this
rule, or at the same moment) settle it at their next publications: one of them
(the one whose publisher name sorts later) deletes its own blocks ahead there
and stops publishing there, with a warning, and the other's plan stays. So
publish the plan from the machine you plan on (as with Reclaim or Motion, one
plan per account), or give each machine a calendar of its own. Ended blocks
are history and never count as a plan. focus never changes or deletes an event
it did not write: `--stop` (`focus calendar publish CALENDAR --stop`) deletes
this machine's events of blocks still ahead, each only in the version it
wrote, and leaves everything else.

focus never reads its own events back as busy time: an event with an
`X-FOCUS-BLOCK` or `X-FOCUS-SESSION` property, or a UID of the forms focus
writes (`focus-block-…@focus`, `<subtask>-<YYYYMMDD>-<n>@focus`,
`session-…@focus`), is skipped wherever calendars are read (import, feeds,
CalDAV), so publishing into a calendar that also counts as busy is safe.
"""#),
        HelpTopic(
            name: "two-machines", title: "Two machines",
            summary: "sync through your CalDAV account",
            commands: ["sync"],
            text: #"""
A laptop and a desktop can keep one history through the CalDAV account you
already connected (`focus calendar connect`): no server of focus's own. Once
on each machine:

  # a calendar of the account, made if it is not there
  focus sync setup Focus
  # later: send what changed here, receive what changed there
  focus sync
  # the last sync, what waits to be sent, recent conflicts
  focus sync status

In the sync calendar every task and subtask is a to-do (`VTODO`: `SUMMARY`,
`DUE`, `DTSTART`, `STATUS:COMPLETED` when done, `DESCRIPTION` for notes,
`RELATED-TO` from a subtask to its task, the estimate, attention span and
earliest time as `X-FOCUS-ESTIMATE`, `X-FOCUS-SPAN`, `X-FOCUS-EARLIEST`; a
subtask's priority as `PRIORITY` — high 1, low 9, normal none, and another
app's 1–4 read as high, 0 and 5 as normal, 6–9 as low, RFC 5545 section
3.8.1.9 — and its daily cap as `X-FOCUS-MAX-PER-DAY:PT2H`), so your tasks show
in any CalDAV to-do app (tasks.org, Thunderbird, Apple Reminders); a to-do
another app adds there becomes a task here (a subtask when it names a focus
task as its parent). Every session is an event (`X-FOCUS-SESSION` with its
status, `X-FOCUS-FOCUSED`, `X-FOCUS-PLANNED`, the note as `DESCRIPTION`),
transparent and never busy time: the sync calendar is left out of planning
even when every calendar of the account is connected. `setup` refuses a
calendar that holds other events. The first sync of a database with history,
and any sync that would delete a session or more than five items here, first
backs the database up beside itself
(`focus.sqlite.before-first-sync-20261124T190000Z`). `focus daemon` syncs at
start, 10 seconds after each local change, and every `sync_interval` (default
`15m`).

How the two sides are merged, item by item, against the version both last
agreed on:

- Every item has one name on every machine. A task or subtask gets a random
  UID at its first sync; a session's UID is made from its task's and subtask's
  UIDs and its start, so a session both machines hold (both imported one file)
  is one session. The same work named on two machines is one item whenever the
  two meet, not only at a first sync: a task of the same title (a subtask of
  the same title in it, a session of the same work and start) made by focus on
  two machines — two first syncs at the same moment, say — keeps the smaller
  of its two names everywhere; the machine that holds the other renames its
  copy and deletes the other name from the calendar. Nothing is doubled and
  nothing is renamed `Thesis (2)`. Published blocks and exported sessions
  carry these names too (a block is named after its subtask's, a session's
  event UID is its sync name), and one calendar holds one machine's plan: see
  "Publishing" above for what two publishers of one calendar do.
- Fields merge one by one. A rename on one machine and a new estimate on the
  other both survive. When the same field changed on both (or an item was made
  on both before they ever met), the later edit wins (each machine notes the
  wall-clock time of every local edit, in milliseconds, as `X-FOCUS-MODIFIED`;
  an item never edited counts from when it was made); on a tie the larger
  value wins, so both machines decide alike. Both values stay listed in `focus
  sync status` for 30 days, dates and durations shown as everywhere else in
  focus.
- A deletion travels as a deletion and wins over an edit made meanwhile on the
  other machine. Deleting a task (`focus task rm`) deletes its subtasks and
  the sessions this machine had seen.
- Another app's deletion never deletes your time. A to-do deleted in another
  app (a phone's to-do list) means "I won't do it", not "erase my time": when
  its sessions are still in the calendar, the task or subtask is kept here
  with them, archived (a subtask done), and no longer travels. The stats keep
  counting its sessions, `focus task list --all` shows it `(deleted
  elsewhere)` (`"deleted_elsewhere": true` in `--json`), the sync says so once
  (`'Thesis/Draft' was deleted in another app: archived here with its
  sessions, which still count`) and `focus sync status` lists it; `focus task
  rm PATH --force` deletes it with them, everywhere. A to-do another app
  deleted before this machine ever saw it still brings its sessions: the task
  or subtask is made here from the session's name, archived and shown as
  deleted elsewhere, and its time counts as on the machines that had it. A
  to-do without sessions deleted there is deleted here. Whatever `focus sync
  status` lists as waiting is sent by the next `focus sync`. The series of
  recurring work ticked done in another app (which sees a plain to-do: focus
  writes no RRULE) means this period's work is done: its current instance is
  done here, as `focus task done SERIES` does, the series is written back open
  and goes on, and the sync says so once.
- Sessions are facts. Merged by their UID, never duplicated; an edited session
  (`log edit`) merges like a task. A deletion removes only what the deleting
  machine had seen: a task or subtask deleted on one machine while the other
  recorded a session in it (or added a subtask to it) comes back on both, with
  the new work; the sessions the deleting machine had seen go. Both machines
  say so: the one that kept it at that sync, the one whose deletion was undone
  at its next (`'Code', deleted here, is back: another machine recorded work
  in it meanwhile`); `focus sync status` lists it on both, and `focus task rm
  PATH --force` deletes it again. A sync that would delete any session here
  backs the database up first, whatever the count.
- A calendar deleted and made again, or emptied, is a new calendar. When the
  server's whole listing holds none of the items agreed with it, everything
  here is sent again and nothing is deleted here (a `focus sync setup` of the
  same name after the calendar was deleted repairs it). Deletions the server
  reports as deletions (a sync token it still knows) travel as usual.
- A forgotten sync token is no excuse. A server may answer a token it pruned
  with every member as `200 OK` rather than RFC 6578's error (DAViCal prunes
  tokens older than 7 days): a sync whose last read is older than three days,
  or whose answer lists nearly every agreed item unchanged, checks the agreed
  items against a listing of the calendar (addresses and ETags), so deletions
  made meanwhile still arrive.
- One plan on both machines. Every setting the planner reads travels: working
  hours (`day_start`, `day_end`, `hours.mon` … `hours.sun`), days off (`focus
  config set off DATE`), `buffer`, the daily cap `max_per_day`, the default
  attention span `work`, the Pomodoro rhythm of the plan (`short_break`
  between blocks, `long_break` after `cycles` of them), the `lunch` gap,
  `minimum_block`, your addresses `email` and `tentative_busy` (which meetings
  are busy), and feed subscriptions (their address and name: never a password,
  a CA file or `--insecure`; a feed that needs one of these stays on its
  machine) travel with sync, in one event of the sync calendar (`focus
  settings`, a transparent all-day event on the day of the last change, one
  `X-FOCUS-SETTING` line a key with the time of its last change), so both
  machines plan the same week. Pins travel in it too, one key a pin: a block
  dragged in the calendar app is pinned on every machine (`Thesis/Draft is
  pinned at Wed 25 Nov 14:00, as on the other machines`), and `focus plan
  --unpin` on one hands it back to the planner on all. Each key merges on its
  own: changed on one machine, that machine's value; changed on both, the
  later change wins (a machine's change counts from when its config file last
  changed), on a tie the larger value. Each day off and each feed is a key of
  its own: days off added on two machines both stay. A machine's first sync
  takes the settings the calendar holds (a new laptop takes the plan's working
  hours) and sends those it lacks. The sync says what it changed here
  (`Settings from the other machines: day_start = 09:00.`). A feed that
  arrives must pass the checks `calendar subscribe` makes of a typed address
  (https or webcal, plain http only to this machine, no login in it, no file),
  else it is not subscribed to here, with one warning; it never replaces a
  calendar here (a name taken here becomes `Team (host)`, then `Team (host)
  2`); and it is fetched only once you say yes to it, as the stored-settings
  rule asks of every address you did not set up on this machine (`focus
  calendar refresh` at a terminal asks; the daemon leaves it until then);
  until it is fetched it is no busy time and `calendar list` says it is `not
  fetched yet`. A feed dropped there is dropped here. A key this machine
  cannot read (`off.today`, a `day_start` of `25:00`) is skipped alone and the
  rest merged, as are days off past 2,000 (the latest are kept) and feeds past
  100: the sync warns, `sync status` lists what the last sync skipped, and the
  event is written again without them. Settings that would not read back
  together here (a `day_start` after this machine's `day_end`) are not
  applied, with a warning, and tried again at the next sync. Every other
  setting (notifications, reminders, idle, hooks, passwords and paths) stays
  each machine's own.
- A running session lives on one machine. While a countdown runs, `focus sync`
  (and the daemon, at once when it starts, pauses or ends) writes a checkpoint
  of it into the calendar; on the other machine an idle `focus status` says
  `idle here · running on laptop: Thesis/Chapter 2 (work), 12:40 left` until
  it ends (`--json` and the status-bar formats stay as documented: they
  describe this machine).
- Offline is normal: changes wait and go with the next sync. A sync killed at
  any moment leaves every item either agreed or still different, never twice:
  an item's address in the calendar is made from its UID, each write uses
  `If-Match` (a new item `If-None-Match: *`), and what the server took is
  recorded at once; tasks are written before their subtasks and sessions,
  deletions the other way round. A write refused because the other machine
  changed the item in between is merged again. A write refused with 412
  because the item is no longer there (DAViCal and Radicale answer `If-Match`
  on a missing member with 412, RFC 7232) is checked against a listing and
  written again as new. A sync that still cannot agree after three rounds says
  so, exits non-zero (69), and `focus doctor` names it.
- What other apps write keeps its meaning. An item written back from here
  keeps what another app wrote in it and focus does not know (a task's
  `PRIORITY`, `CATEGORIES`, alarms, a `RELATED-TO` that is not the parent
  link, a task's own dates, `IN-PROCESS`); only the properties focus writes
  are replaced, and a subtask's `PRIORITY` or daily cap as another app wrote
  it (`PRIORITY:2`, `PT120M`) stays as written while it means what focus
  holds. To-dos nested deeper than a task and its subtasks (as tasks.org and
  Thunderbird make them) attach to the nearest task above them; a to-do that
  is its own parent, is in a cycle of parents, or names a parent that is
  nowhere, is a task (and is written back as one, so that a machine that still
  has the parent holds it as a task too). A to-do without a parent that has a
  due date (`DUE;VALUE=DATE:20261127`, or a time) is a task with one subtask
  of its own title that carries the due date (and the estimate, written as
  `X-FOCUS-ESTIMATE` once you give one: `focus task edit 'Buy milk/Buy milk'
  --estimate 30m`), so it is planned; that subtask is never a to-do of its own
  (the other app sees no child): its due date, estimate, done and the rest of
  its planning (`--start`, `--span`, `--earliest`, `--priority`,
  `--max-per-day`, as `X-FOCUS-*` lines) travel in the to-do, so every machine
  plans it alike; the date stays a date, and work recorded in it travels as
  any session does. Its name and notes are the task's, and it goes with the
  task: renaming it or deleting it alone is refused (exit 64) with the command
  that does it (`focus task edit 'Buy milk' --title NAME`, `focus task rm 'Buy
  milk'`). Two to-dos of the same title from another app are told apart here
  only (`Buy milk`, `Buy milk (2)`): the name here is never written over the
  other app's item.
- Incoming items meet the rules of `task add`, `log add` and `import`. A title
  with control characters, longer than 200 characters or that looks like an id
  (`#3`) is clamped (`task #3`), with a warning naming it; a session that ends
  before it starts, lasts more than 31 days, starts before 2000 or ends more
  than a day in the future is not applied, with a warning, and listed in
  `focus sync status`. iCalendar dates and times are digits only
  (`DUE:20261201T-10000` is refused, not read as 23:00 the day before). An
  item that cannot apply never holds back the sync: later changes keep
  arriving. One that cannot apply yet (an instance of recurring work whose
  series has not arrived) is read again by every sync until it applies or is
  gone there, said once and listed in `focus sync status` meanwhile.
- A long first sync is one write where the server allows it. The first sync of
  a history of 50 items or more into an empty calendar sends them in one
  request (a `PUT` of the whole calendar, guarded by its ETag, which Radicale
  accepts; the calendar keeps its name but loses a colour or component set it
  had), then lists the calendar once to learn where each item went; other
  servers refuse such a write and get one request per item, as every later
  sync does, all over one connection (`scripts/bench/bench-sync --xandikos`
  prints focus's time beside the same PUTs sent by curl).
- A sync with nothing new costs one request. When the server reports no change
  since the last sync and the tables here are as that sync left them (a digest
  of counts, newest ids and the edit times the database keeps for any edit,
  hand edits included), nothing is read, merged or sent.
"""#),
        HelpTopic(
            name: "full-screen", title: "The full-screen view",
            summary: "focus ui: its screens and keys",
            commands: ["ui"],
            text: #"""
`focus ui` fills the terminal (its alternate screen) with five screens, named
in the top bar `1 Today  2 Week  3 Tasks  4 Timer  5 Stats`; the bottom line
lists the keys that work on the screen shown (as many as fit, `?` and `q`
always), and `?` lists them all with what they do (both are read from one key
table).

- Today: the day as a timeline, in slots that fit the terminal: busy time `░`,
  planned blocks `█` in their task's colour, sessions done `✓` (completed),
  `✗` (interrupted), `↑` (open), and a `now` line. Beside it the selected
  item: for a block or a session, its subtask's due date, logged time against
  the estimate, and — when the planner cannot fit the work before its due date
  — the planner's own sentence (as `focus plan` prints it); for a planned
  block, why it is there: the earliest free time before its due date, after
  its start date and earliest time when it has them, or pinned where it was
  moved in your calendar. `[` `]` show the day before and after. The line
  under the top bar gives the day's free time, its all-day events and what is
  due.
- Week: the seven days from Monday side by side on a time grid: working hours
  `·`, busy time, blocks (at-risk work in red), due markers `!`. `h`/`l` (or
  the arrow keys) select a day, `[` `]` move by a week, Enter opens the
  selected day on Today.
- Tasks: the tasks in `focus task list`'s order, each with its subtasks: due
  day, logged over estimate and a bar, priority, at risk; the selected row's
  details below (beside, in a terminal 110 columns wide or more). `/` searches
  as you type (titles and notes, as `focus task list --search`): Enter keeps
  the search, Esc clears it. `d` marks the selected subtask done (or open
  again) or archives the selected task, as `focus task done`; `D` deletes it
  once you answer `y`, as `focus task rm` (work with logged sessions is kept:
  its refusal says how to delete it anyway). `a` opens a form with the fields
  of `focus task add`, in its order (path, estimate, due, start, span,
  earliest, priority, notes), starting from the selected task's name: Tab and
  Shift-Tab move between fields, Enter saves by running `focus task add`, Esc
  cancels. While you type a subtask with an estimate and a due date, the
  planner tries it a moment after the typing stops, without saving anything
  (`task add`'s own path, in a transaction that is rolled back): the form says
  `Fits` and which other subtasks' next blocks would move and to when, or
  gives the planner's refusal (`'Thesis/Chapter 9' does not fit before its due
  date, Tue 8 Dec 17:00: it needs …`). When the work does not fit, Enter shows
  that refusal in the form and nothing is saved; the draft stays for another
  try. `e` opens the same form on the selected subtask, filled in; while you
  change its estimate, due, start, span or earliest it gets the same dry run
  (`task edit`'s own path, rolled back) before anything is saved; Enter runs
  `focus task edit` with the fields changed (a field emptied is cleared,
  `none`).
- Timer: the running session — whichever terminal started it — as `focus
  start` draws it, with its clock five rows tall; space or `p` pauses and
  resumes it, `s` skips to its next phase (as `s` in `focus start`), `x` stops
  it (as `focus pause`, `resume` and `stop`). A running session is also shown
  as a strip under the top bar on every other screen.
- Stats: focus per day as bars stacked by task, and each task's share, for the
  last 7, 14 or 30 days (`[` `]`), the figures of `focus stats --last N`;
  `r` takes a range as `focus stats --from/--to` reads it (`2026-11-01
  2026-11-15`, or `last mon to today` for dates of several words; one that
  cannot be read says why and shows the last 7 days). Enter on a task shows
  the same screen for that task alone, as `focus stats --task PATH` does: its
  name on the first line, its days' bars, its subtasks' shares; `[` `]` and
  `r` keep to it, and Esc (or Backspace) goes back to all tasks.

Panes. Today, Tasks and Stats have two panes: `h`/`l` (or the left and right
arrows) and Tab/Shift-Tab move between them, and the rule beside the pane
that has the keys is heavy. In Today's and Tasks' details `j`/`k`/`g`/`G`
scroll; in Stats' bars (`h`) they pick a day and show its focus. On Week and
Timer, Tab moves to the next screen.

Enter on a block or a session (Today), or on a task or subtask (Tasks), starts
a session on that work: `focus start` runs it in a process of its own, with no
terminal, so it is the same session as one started elsewhere (`focus status`
shows it, `focus stop` stops it) and it runs on when the view is closed. The
view shows it on Timer at once; a refusal (a session is already running) is
said on the line above the keys.

Everywhere: `1`–`5` or Tab and Shift-Tab change screens, `j`/`k` or the arrow
keys move, `g`/`G` go to the first and last row, `p` plans again (as `focus
plan`; on Timer `p` pauses), `R` fetches the subscribed and connected
calendars again (as `focus calendar refresh`, in the background; what it says
shows above the keys), then syncs when sync is set up (`focus sync`), `:` runs
any focus subcommand typed after it (`:task done "Thesis/Chapter 2"`; words
are split as a shell splits them, with no expansion) in the background, with
no terminal, showing the line that says what it did, `q` or Ctrl-C quits
(while a session started from the view runs, `q` asks first: the session
goes on after the view closes, and `focus stop` ends it).
Changes made by any other `focus` (another terminal, the daemon, a sync)
appear at once: the view sleeps on the same change watcher as `focus status
--follow` (inotify on the database's directory), and the selection stays on
the item it was on; a database replaced underneath (`focus restore`) is opened
afresh. It redraws only the lines that changed, inside synchronized output; a
resize redraws it, and `q`, Ctrl-C, SIGTERM and SIGHUP all leave the terminal
as it was (main screen, cursor shown, modes reset); so does a crash (SIGSEGV,
SIGBUS, SIGILL, SIGABRT, SIGFPE), after which the process still ends by that
signal. Ctrl-Z gives the shell its screen back, and `fg` brings the view back
whole. A terminal smaller than 60×16 gets one line asking for more room.
Without a terminal (output piped, or `TERM=dumb`) `focus ui` exits 64 and
points to `focus agenda` and `focus status --follow`.

`scripts/bench/bench-ui` measures the view (release binary, a 120×40
pseudo-terminal, 10,000 sessions, 200 subtasks, 2,000 calendar events). On the
development machine (2 cores, shared): first frame 14–35 ms (budget 50), a key
to its redrawn frame 0.6–1.5 ms median (10), a screen switch 0.4–0.5 ms (20),
a session started by another process on screen in 17–97 ms (300), with a session
running one frame a second of about 410 bytes (a whole frame is 5.2 kB), 14 MB
resident (25). Without a session the view and `focus status --follow` wake
only when something they show can change: about once a minute for the clock
(budget: a handful a minute); with a session, once a second.
"""#),
        HelpTopic(
            name: "status-bars", title: "Status bars",
            summary: "status --format and --follow in bars and prompts",
            commands: [],
            text: #"""
`focus status` answers in a few milliseconds from the database:
`Thesis/Chapter 2 · work · 12:34 left`, or `idle`. `--format '{path}
{remaining}'` takes `{state} {task} {subtask} {path} {phase} {remaining}
{elapsed} {cycle} {cycles}`, `{next}` (the next planned block, `14:00
Thesis/Chapter 2`, with the weekday when it is not today) and `{today}` (focus
today so far, the running session included, `1h35m`). Idle, a template prints
an empty line, unless it has `{next}` or `{today}`: then it is filled with the
session's placeholders empty. `--json` gives `state, task, subtask, phase,
started_at, ends_at, remaining_seconds, cycle, cycles, paused,
elapsed_seconds, pid` (`ends_at` is `null` while paused; idle, only `{"state":
"idle"}`). An open session (`start --open`) has no `ends_at` and no
`remaining_seconds`; it has `"open": true` and counts `elapsed_seconds` up,
and the plain line reads `Thesis · work · 12:03 so far` (`{remaining}` is
empty, `{elapsed}` counts up).

Two presets print what bars read, running or idle (idle, they show the next
block, else today's focus): `--waybar` one JSON object with `text`, `tooltip`
(the session, today's focus and the next block), `class`
(`running`/`paused`/`idle` and the phase, `work`, `short_break`, `long_break`)
and `percentage` (of the phase gone by); `--i3blocks` the full_text,
short_text and colour lines (red at work, green on a break, amber paused, grey
idle). Their first line is also a good one-line text for any bar. Each reads
only what it shows: the session, and one indexed query each for the next block
and today's total.

`--follow` keeps running and prints a new line (or, for `--waybar`, a new JSON
object) only when the output changes: each second while a session runs, at
once when a session starts, stops, pauses or resumes (from any terminal or
script), at local midnight (today's total resets) and when the next block
changes; nothing otherwise. It does not poll: idle, it sleeps until the
database's directory changes (inotify), with a look once a minute at most. It
reads the database only after a change, follows a database replaced by `focus
restore`, and with no database yet prints `idle` (or the empty line) and waits
for one without creating it. It ends with exit 0 when its reader goes away
(the bar restarts or closes its pipe) and on SIGINT or SIGTERM. With
`--follow`, `--i3blocks` prints one JSON object a line (`full_text`,
`short_text`, `color`) for i3blocks' `format=json`. Prefer it to `interval:
1`: one process for the whole session instead of one a second.

waybar (`~/.config/waybar/config`, and `style.css` for the colours), no
`interval`:

  "custom/focus": {
      "exec": "focus status --follow --waybar",
      "return-type": "json",
      "on-click": "focus pause",
      "on-click-right": "focus resume"
  }

  #custom-focus.work { color: #e5534b; }
  #custom-focus.short_break, #custom-focus.long_break { color: #57ab5a; }
  #custom-focus.paused { color: #c69026; }

i3blocks (`~/.config/i3blocks/config`):

  [focus]
  command=focus status --follow --i3blocks
  interval=persist
  format=json

polybar (`~/.config/polybar/config.ini`):

  [module/focus]
  type = custom/script
  exec = focus status --follow --format '{path} {remaining} {next}'
  tail = true
  click-left = focus pause
  click-right = focus resume

Bars that run a command on a timer instead (and tmux) use the one-shot form:

  # ~/.tmux.conf
  set -g status-interval 1
  set -g status-right '#(focus status --i3blocks | head -n1) '

  "custom/focus": { "exec": "focus status --waybar", "return-type": "json",
    "interval": 1 }
"""#),
        HelpTopic(
            name: "hooks", title: "Hooks",
            summary: "scripts run when a session or break ends",
            commands: [],
            text: #"""
Executable files in `$XDG_CONFIG_HOME/focus/hooks/` (default
`~/.config/focus/hooks/`) run when something happens, with the event as one
line of JSON on standard input:

- file: runs when; from
- `session-completed`: a work session reaches 0:00, or an open one is stopped,
  and is recorded; `focus start`
- `session-interrupted`: a work session is stopped early and recorded; `focus
  start`
- `break-over`: a short or long break ends (or is skipped); `focus start`
- `block-starts`: a planned block begins (with its notification); `focus
  daemon`

  {"event": "session-completed", "id": 12, "task": "Thesis", "subtask":
    "Chapter 2",
   "start": "2026-11-20T08:00:00Z", "end": "2026-11-20T08:25:00Z",
     "focused_seconds": 1500,
   "planned_seconds": 1500, "status": "completed", "block_id": 7,
     "completed_in_run": 1,
   "focused_seconds_in_run": 1500}
  {"event": "break-over", "task": "Thesis", "subtask": "Chapter 2", "phase":
    "short_break",
   "cycle": 1, "end": "2026-11-20T08:30:00Z", "next_work_seconds": 1500,
     "block_id": 7}
  {"event": "block-starts", "block_id": 7, "task": "Thesis", "subtask":
    "Chapter 2",
   "start": "2026-11-20T08:00:00Z", "end": "2026-11-20T08:50:00Z",
     "planned_seconds": 3000}

A hook is started directly, never through a shell, with no arguments, focus's
environment, in a process group of its own, while the countdown goes on. It
has `hook_timeout` (default 10 s) to finish; then it and its children get
SIGTERM, and SIGKILL a second later. Its standard output and error (at most 1
MB a run; the rest is left out, and the log says so), and one line per run
(`exit 0 after 0.1 s`, `failed: exit 3`, `stopped`), go to
`$XDG_STATE_HOME/focus/hooks.log` (default `~/.local/state/focus/`), which is
rotated when it reaches 1 MB (`hooks.log.1` … `hooks.log.3` are kept). A hook
that fails, overruns, is not executable or is not a file at all (a directory,
a symbolic link to nothing: each named as what it is) never changes what focus
does or its exit code: it gets one warning line on standard error (in the
countdown, above it) and the log line. A session's end waits for its hook
(within the timeout) before focus exits.

  #!/bin/sh
  # ~/.config/focus/hooks/session-completed: one CSV line per finished session
  jq -r '[.start, .task, .subtask // "", .focused_seconds] | @csv' >> \
      ~/focus-sessions.csv
"""#),
        HelpTopic(
            name: "away", title: "Away from the screen",
            summary: "what happens when you leave during a session",
            commands: [],
            text: #"""
A locked screen is not focus. While a countdown or an open session (`start
--open`) runs, `focus` watches the desktop's screen saver on the D-Bus session
bus (`org.freedesktop.ScreenSaver` and `org.gnome.ScreenSaver`: `GetActive`
and the `ActiveChanged` signal) and, where logind runs, the login session's
`LockedHint` on the system bus (the session of `$XDG_SESSION_ID`, else focus's
own; the bus at `$DBUS_SYSTEM_BUS_ADDRESS` when that is set). Config `idle`
says what the time behind a locked screen is:

- `ask` (the default): work is held from the moment the screen locks (a break
  runs on), and on return the countdown asks `Away 12m: keep, discard, or stop
  at 13:05? (k/d/s)` — `k` counts it as focus, `d` (or space) as a pause, `s`
  records the session as interrupted at the moment the screen locked. While
  the question waits, the key line under the countdown says what the keys
  answer (`k keep · d discard · s stop at 13:05 · q stop now`). The time away
  is counted up to your return: the seconds you take to answer count as
  focus, whatever you answer. With
  nobody at a terminal to answer (output to a pipe with no controlling
  terminal, a background job), `ask` behaves as `discard`: time nobody vouched
  for is not focus.
- `discard`: the time away is a pause. The session's focused time leaves it
  out and its note says `away 12m` (`focus log`); work that begins while the
  screen is locked is held too. An open session is held the same way, so the
  time it records as focused is the time you were there; `s` at the question
  ends it at the lock, still recorded as open.
- `keep`: nothing changes; nothing is watched.

Without a bus or a screen saver nothing changes, and `focus doctor` says so on
its `idle detection` line (or names what it watches). No service is ever
started to answer.
"""#),
        HelpTopic(
            name: "reminders", title: "Reminders",
            summary: "the daemon: reminders before blocks, the day summary",
            commands: ["daemon"],
            text: #"""
`focus daemon` runs in the foreground and sends a desktop notification
`reminder` minutes (default 5) before each planned block and one as it starts
— each once, remembered across restarts, and not for the block you are already
working on. Blocks that pass with no session are marked missed and the plan is
redone. It sleeps until the next reminder is due (and looks for plan changes
every 5 s with two `stat` calls), reloads the config on SIGHUP, stops on
SIGTERM, and refuses to start twice on one database, however it is named (a
symbolic link, `./`, `..`: the lock `focus.sqlite.daemon.lock` sits beside the
database's real path, is never followed through a link, and is refused if it
is not a pid file of yours; `focus restore` checks the same lock). A database
file with a second name (a hard link) is refused by every command (exit 74):
use one name, or a symbolic link. A database file replaced under a running
daemon (another file renamed over the name) is noticed at its next look, by
device and inode: it lets the old file go and reads the new one (`daemon: the
database file was replaced; reading the new one`). With `summary_time` set it
also sends an end-of-day summary.

Run it as a systemd user service:

  # writes ~/.config/systemd/user/focus.service for this binary
  focus daemon --install
  systemctl --user enable --now focus

With `--db` or `FOCUS_DB` set, the unit's `ExecStart` names that database by
its absolute path. Values are written as systemd.service(5) reads them (`%` as
`%%`, `$` as `$$`, quoted with backslash escapes when they hold blanks,
quotes, backslashes or `;`); a path with a control character (a line break
would start a directive of its own) is refused with exit 64.

(`data/focus.service` is the same unit for a `~/.local/bin/focus` install.)
"""#),
        HelpTopic(
            name: "configuration", title: "Configuration",
            summary: "every config key, its default and meaning",
            commands: ["config"],
            text: #"""
`$XDG_CONFIG_HOME/focus/config.toml` (default `~/.config/focus/config.toml`),
plain `key = value` lines; `focus config` lists every key with its value,
`focus config set work 50m` validates and writes one. The file is judged
whole, whatever the order of its lines (`day_start = 22:30` may come before
`day_end = 23:30`); one that does not hold together is refused naming the file
and line (exit 65), and `config set` never writes one.

- key: default; meaning
- `work`: `25m`; work session length
- `short_break` / `long_break`: `5m` / `15m`; break lengths
- `cycles`: `4`; work sessions before a long break (in a countdown and in the
  plan)
- `day_start` / `day_end`: `09:00` / `17:00`; working hours for planning
  (`9am`, `5:30pm` are stored as `09:00`, `17:30`)
- `hours.mon` … `hours.sun`: `default`; `off` for `hours.sat`, `hours.sun`; a
  weekday's own working hours (`"09:00-17:00"` or `"9am-5pm"`), `off`, or
  `default` (`day_start`–`day_end`)
- `lunch`: `12:00-13:00`; a gap kept free every working day (`off`: none); the
  agenda's free time leaves it out too
- `off`: none; dated days off: `focus config set off 2026-12-24` adds one,
  `off -2026-12-24` removes it, `off none` clears
- `minimum_block`: `15m`; shortest block the planner places
- `notifications`: `true`; desktop notifications
- `bell`: `true`; terminal bell at each phase end
- `reminder`: `5m`; reminder before a planned block (0 disables)
- `urgency`: `critical`; urgency of the end-of-work notice (stays until
  dismissed)
- `expiry`: `10s`; how long the other notices stay
- `summary_time`: off; time of the end-of-day summary notice (`focus daemon`)
- `hook_timeout`: `10s`; how long a hook script may run before it is stopped
- `calendar_refresh`: `15m`; how often `focus daemon` refreshes subscribed and
  connected calendars (`1m` or more, or `off`)
- `sync_interval`: `15m`; how often `focus daemon` syncs (`focus sync`)
  besides after each local change (`1m` or more, or `off`)
- `email`: none; your addresses, comma-separated
  (`alice@example.org,alice@work.example`): a meeting you declined there is
  free time
- `tentative_busy`: `true`; a meeting you have not answered or accepted
  tentatively is busy time (`false`: free)
- `buffer`: `0m`; free time the planner keeps before and after every timed
  calendar event (`focus help planning`)
- `max_per_day`: `4h`; the most work planned for one subtask on one day, for
  subtasks without `--max-per-day` (`none`: no cap)
- `idle`: `ask`; time behind a locked screen during a countdown: `ask`,
  `discard` (a pause) or `keep` (`focus help away`)

The planner, the agenda's free time and the refusal reasons follow each day's
working hours: a weekday off or a dated day off holds no blocks and no free
time. A subtask's attention span defaults to `work` (25m): an estimate of 30m
becomes two blocks of 15m unless `--span` says otherwise (`focus task show`
names the span it plans with).

The plan stays true. Any change to what the planner reads — tasks and
subtasks, sessions (recorded, added, edited, removed, imported), calendars,
settings — marks the stored plan stale in the database itself (triggers, so a
hand edit counts too), and every command that wrote re-plans before it ends.
Work whose due date has passed with estimated work left is refused by `task
add`/`edit` unless `--force`, and listed as overdue by `plan`, `agenda` and
`task list`; work with an estimate but no due date is listed as "not planned:
no due date". Work that cannot fit before its due date (saved with `--force`)
gets only the time that work which fits does not need.
"""#),
        HelpTopic(
            name: "files", title: "Files and folders",
            summary: "where the database, config, hooks and logs live",
            commands: [],
            text: #"""
- Database: `$XDG_DATA_HOME/focus/focus.sqlite` (default
  `~/.local/share/focus/`), SQLite in WAL mode, the file 0600 in a 0700
  directory, made by the first command that records something (one that only
  reads never creates it), schema under named, versioned migrations. A file
  that is not a focus database, or one from a newer focus, is reported and
  left untouched. Creating or upgrading a database is one transaction (version
  check, migrations, version stamp): commands started together on a new or old
  file wait for the first and find it ready (`scripts/torture/concurrent-open`
  starts several at once, many times). `--db` and `FOCUS_DB` are plain file
  paths, never SQLite URIs: `--db 'file:x?mode=memory'` or `--db :memory:` is a
  file of exactly that name in the current directory, and the data stays in it.
- Backups: `focus.sqlite.backup-2026-11-22` beside the database, one per local
  day (see below).
- Config: `$XDG_CONFIG_HOME/focus/config.toml`; hooks in
  `$XDG_CONFIG_HOME/focus/hooks/`; `trusted-settings` beside them: the digests
  of the calendar settings you set on this machine (`focus help promises`).
- Hook log: `$XDG_STATE_HOME/focus/hooks.log` (default
  `~/.local/state/focus/hooks.log`).
- `data/`: the sample calendar and history, the notification icon.

Session history moves in and out as JSON Lines (one session per line, `task`,
`subtask`, `start`, `end`, `status` — `completed`, `interrupted` or `open` —,
optional `focused_seconds`, `planned_seconds` (`null` for an open session),
`note`) or CSV with the same columns. A session that ends after now is refused
by `log add`, `log edit` and `import` (with its line) unless `--allow-future`
is given. Import is all-or-nothing and idempotent: a bad line rejects the file
with its line number, and importing the same file twice adds nothing.

Sessions longer than a day. A forgotten timer is real history. A session of
more than 24 hours, in any import format, is imported as one session with one
warning on standard error naming its line (`focus: warning: tw.json:12: a
session of 27h 30m (a forgotten timer?): imported as one session`; after 20
such warnings one more line counts the rest), and the import still exits 0.
One of more than 31 days is a broken end (a wrong month or year), and refuses
the file with its line (65). `log add` and `log edit` take a session of more
than a day only with `--allow-long` (without it: exit 64, naming the flag), up
to 31 days; an edit that keeps the length (a move, a note) needs no flag.
`stats` and `report` spread its focus over the days it covers, cut at local
midnight in proportion to wall time (a middle day gets its whole 24 hours, or
23 or 25 across a DST change) and count it once, completed or interrupted, on
the day it started; `log` lists it under that day; `agenda` shows it on every
day it covers, as it shows a night shift (`(20:00)–23:30  ✗ Thesis/Ch 2  23h
30m of 27h 30m focused this day`: times on another day in parentheses, that
day's share of its focus; the same holds for any session across midnight, and
`agenda --json` lists it under each of those days); `export` writes it as one
line, which imports back unchanged.

Coming from another tracker? `focus import` also reads, with the same
guarantees (every entry a completed session):

- file: task; subtask; note
- Timewarrior: `timew export > tw.json`: tag 1 (`Untagged` if none); tag 2;
  annotation
- Watson: `~/.config/watson/frames`: project; tag 1; —
- Open Pomodoro: `~/.pomodoro/history`: description (`Untagged` if none); —; —

A `.json` array, a file named `frames` or one named `history` is recognised;
otherwise pass `--format`. An interval Timewarrior is still tracking is
skipped (the summary counts it), and an Open Pomodoro entry ends `duration`
minutes (default 25) after its start. Timewarrior keeps tags sorted (`Thesis
Intro` is exported as `Intro, Thesis`), so choose with `--map`: `task=N` /
`subtask=N` take the Nth tag, `task=PREFIX*` the tag starting with PREFIX (a
PREFIX that ends in a separator is a namespace and is dropped, `project:*`
takes `project:Thesis` as `Thesis`; one that ends in a letter or digit keeps
the tag whole, `Th*` takes `Thesis`; numbers then count the other tags),
`project` (Watson), `description` (Open Pomodoro), `subtask=none` no subtask —
e.g. `--map task=project:*,subtask=1`.

`focus export --format ics` (or `--output FILE.ics`) writes the worked
sessions as calendar events — `✓ Thesis/Chapter 2`, `✗ Thesis/Chapter 2
(interrupted)` — with the focused minutes and note in the description, and
UIDs made from each session's identity (its sync name once it was synced, the
same on every machine), so a newer export updates a calendar instead of
duplicating it.
"""#),
        HelpTopic(
            name: "exit-codes", title: "Exit codes",
            summary: "what each exit status means, and error lines",
            commands: [],
            text: #"""
- code: meaning
- 0: success
- 1: `focus doctor` found a problem (each problem line is marked ✗)
- 64: bad usage or a bad value (a malformed or negative duration, an unknown
  task, a title like `#12`, a session that ends after now, a session already
  recorded at that start, a logged session over a day without `--allow-long`
  or over 31 days, a range over 36,600 days, `log rm --all` with no terminal
  to ask at and no `--force`)
- 65: bad input data: a file or a calendar feed that does not parse (a web
  page instead of iCalendar, a config that does not hold together, an import
  line with a session in the future or of more than 31 days), work that does
  not fit before its due date, a change the database's own rules refuse
- 66: an input file that is missing, or a directory, FIFO, socket or device
  where a regular file is needed (also `--db`)
- 69: something needed is unavailable (no session running, a session already
  running or already being stopped, a task a running session records, or one
  recording the work whose sessions `log rm --all` would delete, a calendar
  feed's server unreachable, failing or refusing, a TLS failure, libcurl
  missing)
- 74: I/O: disk, permissions (a file that exists but cannot be read), a
  damaged or foreign database, a database file with more than one name (hard
  links: SQLite keeps a write-ahead log per name, so sessions written through
  one would vanish through another), a database locked after waiting, an
  output that is not a regular file, a failed write to standard output or
  error

Errors are one line on standard error: `focus: error: <what went wrong and how
to fix it>`, a lower-case sentence. A command line that does not parse is exit
64 in the same voice, naming the option or argument and pointing to the
command's own help (`focus: error: missing value for --estimate: give one, as
in --estimate <duration>.` and where to read more); a name with a space typed
without quotes gets the line back quoted, ready to paste (`focus task edit
"Thesis/Chapter 2" --due none`).

Files named on the command line follow one rule in every command. A file focus
reads (`import`, `restore`, `calendar import`, the config) is opened without
blocking and checked before a byte is read: missing, or not a regular file, is
66 naming the path, so a FIFO never hangs focus and a device is never read; a
file that exists but cannot be read is 74. A file focus writes (`backup FILE
--force`, `export --output`, `report --html`, `calendar export`) is written to
a temporary file beside it and renamed over the name only when complete: a new
name, a regular file, or a symbolic link (the link is replaced, never written
through, and a dangling link's target is never created) is fine; a directory,
FIFO, socket or device, or a link to one, is refused with 74 and left as it
was. A file you ask for (`export --output`, `report --html`, `calendar
export`, the unit of `daemon --install`) is created 0666 less your umask, as
`cp` creates one (0644 under the usual umask 022), and one it replaces keeps
its permissions; the files focus keeps for itself (the database, its backups,
the config, the hook log) are 0600 whatever the umask. `-` means standard
output for `export --output`, `report --html` and `calendar export`, as does
any name of the very file standard output is (`/dev/stdout`); nothing else is
printed then.

Standard output and error. A command whose output could not all be written (a
full disk, a closed descriptor: `focus export > /mnt/full/e.jsonl`, `focus log
>&-`) stops writing it, says so in one line on standard error and exits 74,
even when everything else worked (a session or a task it added is kept; only
its report was cut short). A long export stops at the first failed write. A
reader that goes away (`focus log | head -1`) ends the output quietly, with no
message (the reader chose to stop, as for programs that die of SIGPIPE) but
still exit 74, so `set -o pipefail` scripts see the output was cut. (`focus
status --follow` is the one exception: its reader going away is how it ends,
exit 0.)

Progress. `import` (every format), `export`, `backup`, `restore`, `calendar
import`, `report`, `sync` and `sync setup` (`Sending 1,200 / 10,012 items ·
…`) show one line on standard error while they work, when standard error is a
terminal: `Importing 412,000 / 1,000,000 sessions · 27,500/s · 21 s left`
(`Checking 12.3 MB / 26.0 MB · …` while an import file is first read through,
`Restoring 4.2 MB / 28.7 MB · …` while a database is copied; a step whose size
is not known ahead, such as parsing a calendar, shows its name and the seconds
gone by: `Reading its events · 2 s`). It appears after half a second (quick
work shows nothing), is redrawn at most four times a second, is cut to the
terminal's width and is erased (`\r`, ESC `[2K`) before the result is printed.
Nothing is drawn when standard error is not a terminal, with `TERM=dumb`, with
`--quiet`, or for an `export` printing to the same terminal. Counting costs no
measurable time: the clock is read once every 1,024 sessions.
"""#),
        HelpTopic(
            name: "promises", title: "What focus promises",
            summary: "what is never lost, and under which conditions",
            commands: ["doctor"],
            text: #"""
- A session that reached 0:00 is in the log before anything says "completed".
  Progress of a running session is saved every 5 seconds; if focus is killed
  (kill -9, power loss), the next `focus` command records it as interrupted
  with the focus saved so far and tells you. SIGTERM, SIGHUP or SIGINT is
  caught from the first thing `focus start` and `focus continue` do: one sent
  before the countdown has claimed the session (while it waits for the
  database, say) stops the session it begins, recorded as interrupted, the
  terminal left as it was.
- A running session is known by the lock its process holds on
  `focus.sqlite.session.lock` beside the database (fcntl(2); the kernel drops
  it when the process ends, even while it is still a zombie), never by a pid
  stored in the database: a killed session is recovered by the very next
  command, and `stop`, `pause` and `resume` signal only the process the kernel
  names as the lock's holder — never another program that happens to have the
  stored pid. Leave that file alone while a session runs: removed, it is put
  back (and locked) by the session within half a second; a session started by
  a focus older than this lock is not seen by the new one, so stop a running
  session before upgrading.
- Of several `focus stop`s at once exactly one stops the session and reports
  it (its `--reason` is kept); the others exit 69 saying it is already being
  stopped. A session ends when it is recorded: its lock goes with it, before
  the countdown asks "Why did you stop?" after a `q`, and a `focus stop` from
  another terminal or a status bar asks nothing in the countdown's terminal
  (give the reason with `--reason`, or later with `focus log edit ID --note`).
  `task rm` refuses (69) to delete a task or subtask a running session
  records.
- A session that cannot be recorded is never said to be: the countdown prints
  `✗ NOT recorded`, runs no hook and exits 74.
- Ctrl-Z is a pause: the pause is saved, the terminal given back and the
  process stopped; `fg` (or `focus stop`/`resume` from another terminal) goes
  on, the stopped time excluded.
- A suspended laptop is not focus: the sleep is excluded and the session is
  recorded as interrupted at the moment of the suspend.
- Durations come from the monotonic clock: changing the system clock
  mid-session changes nothing.
- Every write is one transaction; nothing is half-written. Deleting a whole
  log (`log rm --subtask PATH --all`) asks first on a terminal (else needs
  `--force`), never touches work a running session records, and leaves what it
  deleted in the day's backup.
- Commands that only read (`status`, `stats`, `task list`, `task show`,
  `agenda`, `log`, `plan --dry-run`, `calendar list`, `calendar busy`,
  `calendar export`, `export`, `report`, `doctor`) never create the database
  or its directory: before anything is recorded they answer as for an empty
  one (`idle`, "No open tasks." and how to add one, an empty report). A
  command that would record but fails first (`focus start Nope`, `focus
  continue` with no history, `focus start` with nothing planned) leaves no
  database behind either: the file and the folders it made are removed when
  nothing was recorded in them, by it or by another command meanwhile.
- Every example in a command's help (`focus help COMMAND`) and in its part of
  `man focus` runs as printed when pasted into a shell (paths with spaces are
  quoted; a test runs each one against the sample data), and a command an
  error message suggests quotes the names in it.
- The log holds time already spent: nothing ending after now is recorded
  unless you say `--allow-future`, so today's totals count only what happened.
  A forgotten timer (a session of more than a day, up to 31 days) is kept as
  one session, said with a warning, and its focus counted on the days it
  covers, never twice. One name is one task, however its accents were typed,
  and every name can be reached by a path.
- A database that cannot be written says why when the system can tell: a
  read-only file system, a full disk, a directory focus may not write, the
  file size limit (`ulimit -f`), or a place that is not on a disk (`/proc`);
  exit 74, nothing half-written.
- Errors say what is wrong in words, never SQLite's text; output never runs
  away: `calendar busy` and `log` take time in proportion to what they print,
  ranges are capped at 36,600 days (a century, as in `stats`), and the hook
  log is bounded.
- The first time focus writes on a day, it keeps a backup (below); a damaged
  database is reported, never overwritten, and `focus restore` brings the
  backup back.
- Exit 0 means all of the output was written: a full disk, a closed standard
  output or a reader that went away is exit 74 (see "Standard output and
  error" above), never a silent half of an export. A file named on the command
  line is never a FIFO focus blocks on or a device it writes into (see "Files
  named on the command line"). The exception is `focus status --follow`, which
  has no end of its own: its reader going away ends it with exit 0.
- A subscribed calendar is never lost to a failed fetch: the last good copy
  stays in use, the failure is one line (69 network or server, 65 a body that
  is not a calendar) and `calendar list` says how old the copy is; a feed or
  connected calendar that suddenly comes back empty is kept aside (`focus help
  calendars`).
- The origin rule. The login (the `Authorization` header) and every write
  (PUT, DELETE, MKCALENDAR) go only to the origin — scheme, host and port — of
  the address the account was connected at. A read redirected to another
  origin goes there without the login, and is never stored as the account's
  new address; a write redirected there is refused. An href in a server's
  answer outside that origin, or outside the collection being read (after its
  `..` segments are resolved, RFC 3986 §5.2.4), is ignored with a warning — in
  discovery, refresh, publish and sync alike. A server that names its account
  on another host is refused with the address to connect to, if you trust it.
  Redirects go to https only (plain http only on the same origin): one to
  `file://`, `gopher://` or plain http elsewhere is exit 69, "redirected to an
  address focus does not follow", and the copy kept.
- The stored-settings rule. A CalDAV account's password command, a remembered
  `--ca-file`, and the addresses of accounts and feeds are used only when you
  set them on this machine (`calendar connect`, `calendar subscribe`), or said
  yes to them. focus keeps what you set as SHA-256 digests in
  `$XDG_CONFIG_HOME/focus/trusted-settings` (0600, outside every database;
  delete a line to be asked again). As ssh does with its own files, a
  `trusted-settings` that is not a regular file of yours, or that group or
  others may write, is ignored with a warning (nothing in it is trusted until
  you `chmod 600` or remove it); commands adding to it at once take turns
  (`trusted-settings.lock` beside it), so none of their lines is lost. So a
  database you did not make — `focus restore` of someone's file, `--db` or
  `FOCUS_DB` naming one — runs no program, reads no file and contacts no
  server of its own: at a terminal focus names the setting and asks (`[y/N]`);
  elsewhere (scripts, `plan`, the daemon) the command exits 69 saying how to
  approve it. `restore` lists every account and feed the file brings in and
  marks those you did not set up; `doctor` lists each stored setting, and one
  you did not set up is a problem (✗). Upgrading from a focus without this
  rule: the first time the file is needed, the accounts and feeds of the
  database at the default path (`~/.local/share/focus/focus.sqlite`, the one
  focus has always used) are trusted once, without a question; those of a
  `--db` or `FOCUS_DB` file are not (say yes once at a terminal, or connect
  the account again). `restore` makes the file before it replaces a database,
  so a restored file is never trusted by that upgrade.
- A password command is done when it has exited and printed its first line,
  even if it left a program running that holds its output (an agent); one that
  does not finish in 60 s is stopped with everything it started (its process
  group). A remembered `--ca-file` is checked at every use by the input-file
  rule: gone, or replaced by a FIFO or device, is exit 66 naming it, and the
  copy kept. An XML answer is read in time proportional to its size, whatever
  it declares (160,000 namespace prefixes included).

`scripts/torture/torture` checks these promises against the release binary, on
throw-away databases, and prints a table of what it tried and what held
(`scripts/torture/torture --quick` is a short run of the same, done by CI;
`--seed N` replays a run, `--only NAME` runs one scenario):

- Killed: `kill -9` at random moments of a countdown, at the instant a session
  completes, in the middle of a 100,000-line `focus import` and during `focus
  plan`. Afterwards `PRAGMA integrity_check` says ok; every session focus said
  it recorded is there exactly once; a killed countdown is recorded as
  interrupted by the next command; an import is all there or not at all; a
  plan is the old one or the new one.
- Crowded: four processes each adding 1,000 sessions while a fifth reads
  `focus stats --json` and `focus status` in a loop: all 4,000 are there, no
  "database is locked", and every total read is right.
- Starved: the database on a full 1 MiB file system (as root) and in a
  read-only directory: one `focus: error:` line naming the cause, exit 74, and
  everything recorded before is intact.
- Corrupted: a truncated file, random bytes in its middle, a newer schema, a
  file that is not a database: reported with exit 74 and a message naming
  `focus restore`, never a crash, and the file is not changed. Damage on pages
  a command does not read is found by the first write that touches it or by
  the check of the day's backup, which is then thrown away.

The full suite (about 200 kills, 4,000 crowded writes) takes 6–10 minutes on
two cores; the quick one about a minute.
"""#),
        HelpTopic(
            name: "backups", title: "Backups",
            summary: "daily backups, backup and restore",
            commands: ["backup", "restore"],
            text: #"""
When a command has written to the database, it checks (one `stat`) whether
today's backup exists, and if not writes one with SQLite's online backup API
beside the database: `focus.sqlite.backup-2026-11-22` (the local day), mode
0600, one self-contained file. So each day's backup holds the database as it
was after that day's first change. The newest seven are kept. Commands that
only read, and writes that fail, never make one; a copy that fails SQLite's
`quick_check` is thrown away (and you are told) rather than rotating out a
good one.

  focus backup                   # today's backup, now
  # a copy elsewhere (--force to replace an existing regular file)
  focus backup ~/focus-2026.db
  # backups: 7 daily, newest 2026-11-22 (1.2 MB), in ~/.local/share/focus
  focus doctor
  # (each problem marked ✗, exit 1: values out of range, an unreadable TZ...)

  focus restore ~/.local/share/focus/focus.sqlite.backup-2026-11-21

`focus restore FILE` checks the file first (the SQLite header, `PRAGMA
integrity_check`, that it is a focus database no newer than this focus) and
refuses while a session or `focus daemon` runs. Stored numbers out of range (a
hand edit, see below) do not stop it: focus reads them clamped, so it restores
the file and names them in warnings on standard error (exit 0); `focus doctor`
lists them all. It keeps the current database beside it as
`focus.sqlite.before-restore-20261122-093000` (UTC) and then replaces it in
one transaction, so every other process sees the old database or the new one,
never a mix; a database too damaged to open is moved aside and the backup
renamed into its place.

Hostile input, caps and local times. Text from people and files (task names,
notes, calendar summaries and locations, file names, values echoed in error
messages) is shown by one rule: tabs and line breaks become a space, and every
other control character (ESC, so no colour, cursor, OSC 52 clipboard or OSC 8
link sequence; C1 controls; NUL, BEL, DEL) and every bidirectional override
(U+202A–U+202E, U+2066–U+2069, U+200E/F, U+061C) is shown as `�`. So is
every character that takes no room (U+200B–U+200D, U+2060, U+FEFF), so a
name with one never looks like another name; a zero-width joiner inside an
emoji (👩‍💻) is kept. Shell completion never offers a name holding one
(address it by its `#ID`); JSON writes them as `\uXXXX`. The HTML
report escapes its text too, notifications escape `<`, `&` and `>` for
libnotify's markup, and JSON keeps text exact, escaping those characters as
`\uXXXX`. Invalid UTF-8 is read as `�`. Terminal views cut free text (a
summary, a note, a path) to 200 display columns, ending in `…`; JSON keeps it
whole. A calendar file is read whole, so one larger than 32 MB is refused
(exit 65); an import line (a CSV record) longer than 1 MB is refused with its
line number (65); recurring events are expanded within fixed step and
occurrence budgets. A hand-edited (or restored) database value of the wrong
type is read the way SQLite converts it, never a crash, and every stored
number is read clamped to its column's range, so no arithmetic after can
overflow: instants to the years 0001–9999 (UTC), durations to 0–100 years (an
estimate or span to at least 1 s), counts to 0–2,147,483,647, a session to at
most a day, keeping whichever of its start and end was in range (its focus to
no more than its length), a block's end to after its start; a command that
writes such a row back (`log edit`) saves it as it was read. `focus doctor`
lists each such value by table, id, column and value (`✗ timeLog #12 endedAt =
9223372036854775807 (expected an instant in the years 0001-9999)`), and exits
1. No input (a file's content, a name, a note, a restored database) makes
focus run a program or choose where it writes: the only programs it runs are
your own hooks, started directly (no shell) with the event as JSON on standard
input, and the password commands you set on this machine; it writes its
database and backups, its config, the hook log, the daemon's lock and unit,
and the files named on its command line.

A local date-time that does not exist (the spring-forward gap, `2026-03-08
02:30` in New York) is moved forward by the gap, one that happens twice
(`2026-11-01 01:30`) takes the first, and every option that takes one
(`--due`, `log add/edit --start/--end`) says so on standard error. Times are
stored as instants: after a change of zone (`--tz`, `TZ`), days are cut at the
new zone's midnights and nothing recorded moves.
"""#),
        HelpTopic(
            name: "tags", title: "Tags",
            summary: "filing sessions under tags",
            commands: [],
            text: #"""
A session can be filed under tags, as in Timewarrior and Watson: `focus start
Thesis --tag deep --tag morning`, `focus log add ... --tag deep`. `focus log
edit 12 --tag review` adds a tag and `--untag deep` removes one (Timewarrior's
`tag` and `untag`); the other tags stay. `focus log --tag deep` lists only the
sessions with that tag and `focus stats --tag deep` counts only them (totals,
days, tasks and charts); `focus stats` adds a "By tag" table and `--json` a
`tags` array. The listing shows a session's tags after its path, `+deep
+morning`.

A tag name is trimmed, 1 to 40 characters, without control characters, line
breaks or `;`; names that differ only in case are one tag, spelled as first
written (`Deep` and `deep`). A bad name is refused (exit 64), and so are more
than 32 tags on a session (an import line with more is refused, exit 65; a
session from sync keeps its first 32, with a warning). Tags travel everywhere
sessions do: `log --json` and the JSON Lines interchange have `"tags":
["deep", "morning"]` (sorted; JSON Lines only when there are some), CSV a
`tags` column with the names separated by `;` (`deep;morning`). Importing a
session that is already there adds the file's tags it lacks, once. From
Timewarrior and Watson the tags that `--map` does not turn into the task or
subtask are the session's tags (an interval tagged `Thesis`, `Intro`, `deep`
is a session of Thesis/Intro tagged deep). With sync, a session's tags are a
`CATEGORIES` property of its event (RFC 5545 section 3.8.1.2), beside the
`focus` one that marks every session, and a change of tags on one machine
reaches the other.
"""#),
        HelpTopic(
            name: "scripts", title: "Stats for scripts",
            summary: "the JSON and CSV of stats, colour and width",
            commands: ["stats", "report", "export", "import"],
            text: #"""
`focus stats --json` prints one object (keys are stable; new ones may be
added): `from`, `to` (the local days, `2026-11-16`), `timezone`; `days`, every
day of the window ascending, each `date`, `focused_seconds`, `completed`,
`interrupted`; `tasks`, by focused time descending, each `task`,
`focused_seconds`, `completed`, `interrupted` and `subtasks` (the same with
`subtask`); `totals` (`focused_seconds`, `completed`, `interrupted`); then

- `summary`: `focused_seconds`, `daily_average_seconds` (over every day asked,
  empty ones included), `days_with_focus`, `best_day` (`{date,
  focused_seconds}`, or null), `streak_days` and `streak_end` (consecutive
  days with focus ending today, or yesterday when today has none yet; for a
  past window its last day), `completion_percent` (sessions completed, of
  those started; null with none), `previous_from`, `previous_to`,
  `previous_focused_seconds` (the period of the same length just before) and
  `change_percent` (against it, one decimal; null when it had no focus);
- `estimates`: `subtasks` (open ones with an estimate, and those finished with
  work in the window: `task`, `subtask`, `estimate_seconds`, `logged_seconds`,
  `progress_percent`, `done`, `actual_ratio` — logged over estimate, two
  decimals, for one finished in the window), `median_ratio`, `ratio_sample`
  (how many finished subtasks it is taken over) and `sentence` (the line the
  terminal shows, or null);
- `insights`: `by_hour` (hours of the local start with sessions: `hour` 0–23,
  `sessions`, `completed`, `interrupted`, `completion_percent`),
  `by_planned_length` (`bucket` like `16_25m`, `min_seconds`, `max_seconds` —
  null for the longest —, then the same counts), `best_hour` and `worst_hour`
  (by completion rate; null with fewer than two hours) and
  `suggested_span_seconds` (the longest planned length completed in the
  longest bucket that finishes at least 80%; null without one);
- `task_filter`: the `--task` given, or null;
- `tags`: every tag with time or sessions in the window, sorted as `tasks`,
  each `tag`, `focused_seconds`, `completed`, `interrupted` (a session with
  two tags counts under both); `tag_filter`: the `--tag` given, or null.

Durations are whole seconds; `completed` and `interrupted` count sessions on
the local day they started, while focused time is split at local midnight.
`focus stats --csv` prints a header and one row per day:
`date,weekday,focused_seconds,completed,interrupted`
(`2026-11-20,Fri,15780,6,1`), fields quoted as RFC 4180 says when they need
it.

Colour is used only on a terminal; `NO_COLOR` set to anything but the empty
string (see no-color.org) or `TERM=dumb` turns it off everywhere. Output fits
the terminal's width, or `COLUMNS` when it is set.
"""#),
    ]
}
