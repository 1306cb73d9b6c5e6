"""Names that would run as commands when a shell completes them (issue #39).

Every run makes new task names from t.rng, of pieces a shell would expand or split: $(…),
backticks, $VARIABLES, ;, |, &, quotes, backslashes, globs, ~, a leading -, spaces and
non-ASCII letters. Each name is added as a task; then bash's completion function (with
bash-completion's functions when Debian's package is installed), as `focus
--generate-completion-script bash` writes it, is asked for candidates:
- no command in a name ever runs (a marker file made by one is a failure);
- each name is offered as one word that reads back as the name itself (eval, as the shell
  reads the line after Tab).
zsh and fish complete only in an interactive shell (fish's `commandline` refuses otherwise):
Tests/EndToEndTests/CompletionTests.swift drives them in tmux.
"""

import os
import subprocess

PIECES = ["$(touch {m})", "`touch {m}`", "; touch {m}", "| touch {m}", "&& touch {m} &&", "$HOME", "${{PATH}}",
          "'", '"', "\\", "*", "?", "[a-z]", "~", " ", "été", "#", "=", "!", "{{a,b}}", ":", "%s"]


def name(rng, marker):
    parts = [rng.choice(PIECES).format(m=marker) for _ in range(rng.randint(1, 4))]
    text = "".join(rng.choice([p, "x" + p, p + "y"]) for p in parts).strip()
    if rng.random() < 0.2:
        text = "-" + text
    return text.replace("/", "-") or "x"


def run(t):
    row = t.row("hostile/completion", "hostile task names through bash's Tab completion")
    # A folder of its own: the countdown family's "completion" scenario has t.tmp/completion.
    work = os.path.join(t.tmp, "hostile-completion")
    os.makedirs(work, exist_ok=True)
    db = t.new_db("hostile-completion")
    env = t.env({"FOCUS_DB": db, "PATH": os.path.dirname(os.path.abspath(t.bin)) + ":" + os.environ.get("PATH", "")})
    marker = os.path.join(work, "RAN")
    names = []
    for _ in range(8 if t.quick else 40):
        n = name(t.rng, "RAN")
        p = subprocess.run([t.bin, "task", "add", "--", n], capture_output=True, text=True, env=env, timeout=60, cwd=work,
                           stdin=subprocess.DEVNULL)
        t.processes += 1
        t.note_crash(p, ["task", "add", n])
        if p.returncode == 0 and n.strip() not in names:
            names.append(n.strip())
    if not row.check(names, "no hostile name could be added as a task"):
        return

    script = os.path.join(work, "focus.bash")
    with open(script, "w") as f:
        f.write(subprocess.run([t.bin, "--generate-completion-script", "bash"], capture_output=True, text=True, env=env).stdout)
    program = f"""
        [ -r /usr/share/bash-completion/bash_completion ] && source /usr/share/bash-completion/bash_completion
        source {script!r}
        COMP_WORDS=({t.bin!r} task show '')
        COMP_CWORD=3
        COMP_LINE="${{COMP_WORDS[*]}}"
        COMP_POINT=${{#COMP_LINE}}
        _focus focus '' show 2>/dev/null
        for c in "${{COMPREPLY[@]}}"; do eval "set -- $c"; printf '%s\\0' "$#:$1"; done
        """
    p = subprocess.run(["bash", "-c", program], capture_output=True, env=env, cwd=work, timeout=120)
    offered = [w.decode("utf-8", "replace") for w in p.stdout.split(b"\0") if w]
    row.check(not os.path.exists(marker), "bash: a name ran as a command when completed")
    row.check(all(w.startswith("1:") for w in offered), f"bash: a name completed to several words: {offered[:3]!r}")
    row.check(sorted(w[2:] for w in offered) == sorted(names),
              f"bash offered {sorted(w[2:] for w in offered)[:5]!r}…, not the names {sorted(names)[:5]!r}…")
