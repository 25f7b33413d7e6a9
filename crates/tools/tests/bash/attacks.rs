//! Attacks: every one must be refused before anything runs, with a reason that starts with
//! `Command blocked:`. After all of them, the sentinel outside was never shown, the victim
//! directory is still empty, and no hostile git setting ran.

use crate::fixture::{FORCED, Fixture, KEY_SECRET, SECRET, SENTINEL, TOKEN};

/// (command, a phrase the refusal must contain).
pub const BLOCKED: &[(&str, &str)] = &[
    // Writes.
    ("echo x > out.txt", "read-only"),
    ("echo x >> README.md", "read-only"),
    ("cat README.md > ../victim/x", "read-only"),
    ("grep x go.mod 1>out", "read-only"),
    ("ls &> out.txt", "read-only"),
    ("echo x >| f", "read-only"),
    ("ls 3>../victim/x", "read-only"),
    ("cat go.mod 2> err.txt", "read-only"),
    ("ls > /dev/tcp/127.0.0.1/80", "read-only"),
    ("cat go.mod | tee out.txt", "`tee` changes files"),
    ("tee ../victim/a < go.mod", "`tee` changes files"),
    ("sed -i s/a/b/ go.mod", "sed -i"),
    ("sed --in-place s/a/b/ go.mod", "in-place"),
    ("sed -n 'w ../victim/x' go.mod", "writes a file"),
    ("sed 's/a/b/w ../victim/x' go.mod", "writes a file"),
    ("sed -n '1,5p;W x' go.mod", "writes a file"),
    ("sed '1e touch x' go.mod", "runs a shell command"),
    ("sed 's/a/id/e' go.mod", "runs a command"),
    ("sed 'r /etc/passwd' go.mod", "reads another file"),
    ("sed -f script.sed go.mod", "sed -f"),
    ("sed '1i hello' go.mod", "insertion"),
    ("sort -o ../victim/x go.mod", "sort -o"),
    ("sort --output=x go.mod", "sort --output"),
    ("sort --out=x go.mod", "not on the allowed list"),
    ("sort -T ../victim go.mod", "sort -T"),
    ("sort --compress-program=sh go.mod", "runs another program"),
    ("sort --files0-from=list", "reads a list of files"),
    ("uniq docs/notes.txt ../victim/x", "writes the second"),
    ("uniq docs/notes.txt out.txt", "writes the second"),
    ("awk '{print > \"../victim/x\"}' go.mod", "writes a file"),
    ("awk '{print $0 >> \"x\"}' go.mod", "writes a file"),
    ("awk 'BEGIN{system(\"touch ../victim/x\")}'", "system()"),
    ("awk '{print | \"sh\"}' go.mod", "pipes"),
    (
        "awk 'BEGIN{while ((\"cat /etc/passwd\" | getline l) > 0) print l}'",
        "pipes",
    ),
    (
        "awk 'BEGIN{getline l < \"/etc/passwd\"; print l}'",
        "getline",
    ),
    ("awk -f prog.awk go.mod", "awk -f"),
    ("awk '@load \"x\"'", "directives"),
    ("find . -delete", "deletes files"),
    ("find . -name x -delete", "deletes files"),
    ("find . -exec rm {} \\;", "-exec"),
    ("find . -execdir cat {} +", "-exec"),
    ("find . -ok cat {} \\;", "-exec"),
    ("find . -fprint ../victim/x", "writes a file"),
    ("find . -fprintf ../victim/x %p", "writes a file"),
    ("find . -fls x", "writes a file"),
    ("tree -o ../victim/x", "tree -o"),
    ("tree -R -H x .", "tree -R"),
    ("tree --fromfile x", "fromfile"),
    ("touch x", "changes files"),
    ("rm -rf .", "changes files"),
    ("mv go.mod x", "changes files"),
    ("cp go.mod ../victim/", "changes files"),
    ("mkdir d", "changes files"),
    ("ln -s /etc x", "changes files"),
    ("chmod 777 go.mod", "changes files"),
    ("dd if=go.mod of=../victim/x", "changes files"),
    ("truncate -s0 go.mod", "changes files"),
    ("git commit -m x", "changes the repository"),
    ("git add .", "changes the repository"),
    ("git checkout -- .", "changes the repository"),
    ("git reset --hard", "changes the repository"),
    ("git stash", "stashes the working tree"),
    ("git config user.name x", "changes the configuration"),
    ("git branch newb", "creates a branch"),
    ("git branch -D main", "changes the repository"),
    ("git branch -rd origin/x", "changes the repository"),
    ("git tag v1", "creates a tag"),
    ("git tag -d v1", "changes the repository"),
    ("git clean -fdx", "changes the repository"),
    ("git gc", "changes the repository"),
    ("git update-index --refresh", "changes the repository"),
    ("git worktree add ../victim/w", "changes the repository"),
    ("git diff --output=../victim/x", "writes a file"),
    ("git log --output=x", "writes a file"),
    ("git format-patch -1 -o ../victim", "is not allowed"),
    // Running other programs.
    ("rg --pre sh x", "--pre"),
    ("rg --pre=sh x", "--pre"),
    ("rg --pre-glob '*' x", "--pre"),
    ("rg -z x", "decompression"),
    ("rg --search-zip x", "decompression"),
    ("find . -exec sh -c id \\;", "-exec"),
    ("echo x | xargs sh -c id", "is not one of them"),
    ("find . | xargs rm", "is not one of them"),
    ("find . | xargs -I{} cat {}", "xargs -I"),
    ("ls | xargs git log", "masked"),
    ("xargs -a list.txt cat", "xargs -a"),
    ("find . | xargs -P4 grep x", "not supported"),
    ("less README.md", "interactive"),
    ("more README.md", "interactive"),
    ("vim go.mod", "interactive"),
    ("man ls", "interactive"),
    ("sh -c id", "arbitrary code"),
    ("bash -c 'cat /etc/passwd'", "arbitrary code"),
    ("python3 -c 'print(1)'", "arbitrary code"),
    ("perl -e 'print 1'", "arbitrary code"),
    ("ruby -e 'p 1'", "arbitrary code"),
    ("node -e 1", "arbitrary code"),
    ("gawk 'BEGIN{system(\"id\")}'", "arbitrary code"),
    ("busybox sh", "arbitrary code"),
    ("eval ls", "run another command"),
    ("exec ls", "run another command"),
    ("source x.sh", "run another command"),
    (". ./x.sh", "run another command"),
    ("hash ls", "run another command"),
    ("alias ll=ls", "run another command"),
    ("command ls", "run another command"),
    ("builtin echo", "run another command"),
    ("env ls", "run another command"),
    ("nohup ls", "run another command"),
    ("timeout 1 ls", "run another command"),
    ("sudo ls", "run another command"),
    ("export X=1", "declaring variables"),
    ("set -x", "run another command"),
    ("trap id EXIT", "run another command"),
    ("/bin/ls", "by path"),
    ("./--pre=sh", "by path"),
    ("/usr/bin/cat /etc/passwd", "by path"),
    ("git -c core.pager=sh log", "git -c"),
    ("git -c alias.x='!id' x", "git -c"),
    ("git --exec-path=/tmp log", "points git"),
    ("git --git-dir=../outside log", "points git"),
    ("git --work-tree=/ status", "points git"),
    ("git -C / log", "leaves the repository"),
    ("git -C .. log", "`..`"),
    ("git -C link_out log", "outside the repository"),
    ("git -p log", "pager"),
    ("git grep -O sh x", "not allowed here"),
    ("git grep --open-files-in-pager=sh x", "pager"),
    ("git diff --ext-diff", "runs programs"),
    ("git log -p --textconv", "runs programs"),
    ("git log --show-signature", "gpg"),
    ("git st", "is not allowed"),
    ("git lg", "is not allowed"),
    ("git difftool", "is not allowed"),
    ("git submodule foreach id", "changes the repository"),
    ("git archive HEAD -o ../victim/x.tar", "network"),
    ("git fetch", "network"),
    ("git pull", "network"),
    ("git push", "network"),
    ("git clone x", "network"),
    ("git blame -S revs.txt go.mod", "not allowed here"),
    ("git blame --contents /etc/passwd go.mod", "--contents"),
    ("git blame --ignore-revs-file=x go.mod", "ignore-revs-file"),
    ("git diff --no-index /etc/passwd go.mod", "--no-index"),
    (
        "git diff --no-index ../outside/sentinel.txt go.mod",
        "--no-index",
    ),
    ("curl http://example.com", "network"),
    ("wget http://example.com", "network"),
    ("nc -l 1234", "network"),
    ("ssh host", "network"),
    ("ping 1.1.1.1", "network"),
    ("id", "not an allowed program"),
    ("ps aux", "not an allowed program"),
    ("printf '%s' x", "not an allowed program"),
    ("cargo build", "arbitrary code"),
    // Expansion and shell constructs.
    ("echo $HOME", "variables"),
    ("echo ${HOME}", "variables"),
    ("cat \"$HOME/.ssh/id_rsa\"", "variables"),
    ("echo $OPENAI_API_KEY", "variables"),
    ("echo `id`", "backtick"),
    ("cat $(echo /etc/passwd)", "absolute path"),
    ("cat $(echo ../outside/sentinel.txt)", "`..`"),
    ("rg $(echo --pre=sh) x", "--pre"),
    ("grep x $(echo .env)", "masked"),
    ("cat $(sh -c id)", "arbitrary code"),
    ("echo $((1+2))", "arithmetic"),
    ("cat <(ls)", "process substitution"),
    ("diff <(ls) <(ls)", "process substitution"),
    ("cat <<EOF\nx\nEOF", "here-documents"),
    ("grep x <<< hi", "here-strings"),
    ("echo $'\\x41'", "`$'…'`"),
    ("ls &", "background"),
    ("ls & cat /etc/passwd", "background"),
    ("(cd .. && ls)", "subshells"),
    ("{ ls; }", "groups"),
    ("f() { ls; }; f", "functions"),
    ("for f in *; do cat $f; done", "loops"),
    ("while true; do ls; done", "loops"),
    ("if true; then ls; fi", "conditionals"),
    ("[ -f x ] && ls", "conditionals"),
    ("! ls", "`!`"),
    ("X=1 ls", "variable prefix"),
    ("PATH=/tmp ls", "variable prefix"),
    ("LD_PRELOAD=/tmp/x.so ls", "variable prefix"),
    ("GIT_DIR=../outside git log", "variable prefix"),
    ("X=1", "variables"),
    ("ls |& cat", "`|&`"),
    ("echo x >&2", "`>&2`"),
    ("cat < /etc/passwd", "absolute path"),
    ("cat < ../outside/sentinel.txt", "`..`"),
    ("cat < .env", "masked"),
    ("cat 'unterminated", "not valid shell syntax"),
    ("ls )", "not valid shell syntax"),
    ("cat go.mod\u{0}", "U+0000"),
    ("cat go.mod\u{202e}", "U+202E"),
    ("ls\u{200b}", "U+200B"),
    ("cat\u{7} x", "U+0007"),
    ("", "empty"),
    ("   ", "empty"),
    // Paths.
    ("cat /etc/passwd", "absolute path"),
    ("cat ../outside/sentinel.txt", "`..`"),
    ("cat ~/.bashrc", "`~`"),
    ("cat sentinel_link", "outside the repository"),
    ("cat link_out/sentinel.txt", "outside the repository"),
    ("cat passwd", "outside the repository"),
    ("cat hard.txt", "hard link"),
    ("cat .env", "masked"),
    ("cat config/.env.production", "masked"),
    ("cat certs/server.key", "masked"),
    ("cat env_alias.txt", "masked"),
    ("head -5 .env", "masked"),
    ("grep API .env", "masked"),
    ("grep -f /etc/passwd go.mod", "absolute path"),
    ("grep --file=../outside/sentinel.txt go.mod", "`..`"),
    ("grep -R x .", "grep -R"),
    ("grep --exclude-from=/etc/passwd x .", "absolute path"),
    ("grep -r SENTINEL link_out", "outside the repository"),
    ("grep -r x /proc/self/environ", "absolute path"),
    ("cat /proc/self/environ", "absolute path"),
    ("cat /proc/1/environ", "absolute path"),
    ("cat /dev/urandom", "absolute path"),
    ("ls /", "absolute path"),
    ("ls ..", "`..`"),
    ("ls -L link_out", "ls -L"),
    ("ls link_out/", "outside the repository"),
    ("cd ..", "`..`"),
    ("cd /", "leaves the repository"),
    ("cd ~", "leaves the repository"),
    ("cd -", "leaves the repository"),
    ("cd link_out", "outside the repository"),
    ("cd internal && cat ../../../outside/sentinel.txt", "`..`"),
    ("cd internal && cat ../../.env", "`..`"),
    ("cd internal && cat ../.env", "masked"),
    ("wc --files0-from=list", "reads a list of files"),
    ("du --files0-from=x", "reads a list of files"),
    ("du -L .", "du -L"),
    ("file -f list.txt", "file -f"),
    ("file -m /tmp/magic go.mod", "magic file"),
    ("stat /etc/passwd", "absolute path"),
    ("rg x /etc", "absolute path"),
    ("rg -L x", "rg -L"),
    ("rg --follow x", "--follow"),
    ("rg --ignore-file=/etc/passwd x", "ignore files"),
    ("rg -f ../outside/sentinel.txt .", "`..`"),
    ("diff go.mod /etc/passwd", "absolute path"),
    ("diff go.mod ../outside/sentinel.txt", "`..`"),
    ("tail -f go.mod", "waits forever"),
    ("tree -l", "tree -l"),
    ("nl /etc/passwd", "absolute path"),
    ("cut -f1 /etc/passwd", "absolute path"),
    ("sed -n 1p /etc/passwd", "absolute path"),
    ("awk '{print}' /etc/passwd", "absolute path"),
    ("sort ../outside/sentinel.txt", "`..`"),
    ("find -L . -name sentinel.txt", "find -L"),
    ("find . -follow", "-follow"),
    ("find . -newer /etc/passwd", "absolute path"),
    ("find / -name passwd", "absolute path"),
    ("find .. -name x", "`..`"),
    ("find link_out", "outside the repository"),
    ("git show HEAD:.env", "secrets list"),
    ("git show HEAD:config/.env.production", "secrets list"),
    ("git log -p -- .env", "masked"),
    ("git diff -- certs/server.key", "masked"),
    ("git blame .env", "masked"),
    ("git grep API_KEY -- .env", "masked"),
    ("git ls-files ../", "`..`"),
    ("git log -- /etc/passwd", "absolute path"),
    ("git show :0:.env", "secrets list"),
    ("git show HEAD^{tree}:certs/server.key", "secrets list"),
    ("diff -r docs internal", "diff -r"),
    // Issue 15: git's write forms next to the read forms that are now allowed.
    ("git config core.pager less", "changes the configuration"),
    (
        "git config set core.pager less",
        "changes the configuration",
    ),
    ("git config unset core.bare", "changes the configuration"),
    ("git config --add core.x y", "changes the configuration"),
    ("git config --unset core.bare", "changes the configuration"),
    (
        "git config --unset-all core.bare",
        "changes the configuration",
    ),
    (
        "git config --replace-all core.bare true",
        "changes the configuration",
    ),
    (
        "git config --rename-section core x",
        "changes the configuration",
    ),
    (
        "git config --remove-section core",
        "changes the configuration",
    ),
    ("git config --edit", "opens an editor"),
    ("git config -e", "opens an editor"),
    ("git config edit", "changes the configuration"),
    ("git config --global --list", "outside the repository"),
    (
        "git config --system --get core.pager",
        "outside the repository",
    ),
    ("git config --global user.name x", "outside the repository"),
    ("git config --file ../outside/x --list", "`..`"),
    ("git config --file=/etc/gitconfig --list", "absolute path"),
    ("git config -f link_out/sentinel.txt --list", "outside"),
    ("git config --file .env --list", "masked"),
    ("git config --blob HEAD:.gitconfig --list", "--blob"),
    ("git config --includes --list", "include.path"),
    ("git config -z --list", "not supported"),
    (
        "git config --get-urlmatch http https://x",
        "not on the allowed list",
    ),
    ("git config", "reading action"),
    ("git stash push", "only `git stash list`"),
    ("git stash push -m x", "only `git stash list`"),
    ("git stash pop", "only `git stash list`"),
    ("git stash drop", "only `git stash list`"),
    ("git stash apply", "only `git stash list`"),
    ("git stash clear", "only `git stash list`"),
    ("git stash save x", "only `git stash list`"),
    ("git stash branch x", "only `git stash list`"),
    ("git stash create", "only `git stash list`"),
    ("git stash store abc", "only `git stash list`"),
    ("git stash -p", "only `git stash list`"),
    ("git stash show -p", "git diff stash@{0}^ stash@{0}"),
    (
        "git stash show --patch stash@{0}",
        "git diff stash@{0}^ stash@{0}",
    ),
    ("git stash show --ext-diff", "not on the allowed list"),
    ("git stash list -p", "not on the allowed list"),
    ("git stash list --output=x", "not on the allowed list"),
    (
        "git reflog expire --expire=now --all",
        "rewrites the reflog",
    ),
    ("git reflog delete HEAD@{0}", "rewrites the reflog"),
    ("git reflog -p", "not on the allowed list"),
    ("git reflog show --stat -p", "not on the allowed list"),
    ("git worktree add ../victim/w", "only `git worktree list`"),
    ("git worktree remove x", "only `git worktree list`"),
    ("git worktree prune", "only `git worktree list`"),
    ("git worktree move a b", "only `git worktree list`"),
    ("git worktree lock x", "only `git worktree list`"),
    ("git worktree unlock x", "only `git worktree list`"),
    ("git worktree repair", "only `git worktree list`"),
    ("git worktree list --expire=now", "not on the allowed list"),
    (
        "git remote add evil https://x",
        "changes the repository's remotes",
    ),
    (
        "git remote set-url origin https://x",
        "changes the repository's remotes",
    ),
    (
        "git remote remove origin",
        "changes the repository's remotes",
    ),
    (
        "git remote rename origin x",
        "changes the repository's remotes",
    ),
    (
        "git remote prune origin",
        "changes the repository's remotes",
    ),
    ("git remote update", "changes the repository's remotes"),
    ("git remote show origin", "no network"),
    ("git cat-file --batch", "stdin"),
    ("git cat-file --batch-check", "stdin"),
    ("git cat-file --textconv HEAD:go.mod", "runs programs"),
    ("git cat-file --filters HEAD:go.mod", "runs programs"),
    ("git cat-file -p HEAD:.env", "secrets list"),
    ("git cat-file -p HEAD:certs/server.key", "secrets list"),
    ("git cat-file blob HEAD:go.mod", "needs -p"),
    ("git cat-file -p -t HEAD", "one of -p"),
    ("jq -n '$ENV'", "reads the environment"),
    ("jq -n env", "reads the environment"),
    ("jq -n 'env.HOME'", "reads the environment"),
    ("jq -n '\"\\(env)\"'", "reads the environment"),
    (
        "jq -r '$ENV.PATH' docs/config.json",
        "reads the environment",
    ),
    ("jq input_filename docs/config.json", "input's path"),
    ("jq --rawfile x /etc/passwd -n '$x'", "reads another file"),
    (
        "jq --slurpfile x ../outside/sentinel.txt -n '$x'",
        "reads another file",
    ),
    ("jq -f ../outside/prog.jq docs/config.json", "`..`"),
    (
        "jq --from-file /etc/passwd docs/config.json",
        "absolute path",
    ),
    (
        "jq -f docs/notes.txt -f x docs/config.json",
        "before the input files, once",
    ),
    (
        "jq docs/config.json -f docs/notes.txt",
        "before the input files, once",
    ),
    ("jq -f -r docs/config.json", "needs a file"),
    ("ag -t SECRET", "ignore rules"),
    ("jq . /etc/passwd", "absolute path"),
    ("jq . .env", "masked"),
    ("jq . link_out/sentinel.txt", "outside"),
    (
        "jq -L /tmp 'import \"x\" as y; .' docs/config.json",
        "jq -L",
    ),
    ("jq 'include \"x\"; .' docs/config.json", "loads a module"),
    ("jq --args -n '$ARGS' x", "not supported"),
    (
        "jq --seq --debug-trace . docs/config.json",
        "not on the allowed list",
    ),
    ("xxd -r dump.hex out.bin", "xxd -r"),
    ("xxd -revert dump.hex", "xxd -r"),
    ("xxd go.mod ../victim/x", "writes the dump"),
    ("xxd go.mod out.txt", "writes the dump"),
    ("xxd .env", "masked"),
    ("xxd -p env_alias.txt", "masked"),
    ("xxd /etc/passwd", "absolute path"),
    ("od -c /etc/passwd", "absolute path"),
    ("od -c certs/server.key", "masked"),
    ("hexdump -C .env", "masked"),
    ("hexdump -f ../outside/fmt go.mod", "`..`"),
    ("sha256sum -c", "give the checksum file"),
    (
        "cat docs/SHA256SUMS | sha256sum -c",
        "give the checksum file",
    ),
    ("sha256sum -c -", "give the checksum file"),
    (
        "sha256sum -c docs/evil.sha256",
        "would read a file it names",
    ),
    (
        "md5sum --check docs/evil.sha256",
        "would read a file it names",
    ),
    ("sha256sum -c ../outside/sums", "`..`"),
    ("sha256sum .env", "masked"),
    ("md5sum hard.txt", "hard link"),
    ("base64 .env", "masked"),
    ("base64 -d ../outside/x", "`..`"),
    ("base64 -d go.mod > out.bin", "read-only"),
    ("column -t /etc/passwd", "absolute path"),
    ("column -t config/.env.production", "masked"),
    ("fd -x cat", "fd -x"),
    ("fd -X cat", "fd -x"),
    ("fd --exec cat {}", "fd -x"),
    ("fd --exec-batch cat", "fd -x"),
    ("fd -l go", "runs `ls`"),
    ("fd -L x", "follows symlinks"),
    ("fd --ignore-file /etc/passwd x", "ignore files"),
    ("fd x /etc", "absolute path"),
    ("fd --base-directory / x", "absolute path"),
    ("fd --search-path .. x", "`..`"),
    ("ag --pager sh x", "runs another program"),
    ("ag -f x", "follows symlinks"),
    ("ag -u SECRET", "ignore rules"),
    ("ag --unrestricted SECRET", "ignore rules"),
    ("ag -z x", "compressed"),
    ("ag -p /etc/passwd x", "absolute path"),
    ("ag x /etc", "absolute path"),
    ("cat {go.mod,.env}", "masked"),
    ("cat {go.mod,../outside/sentinel.txt}", "`..`"),
    ("cat {/etc/passwd,go.mod}", "absolute path"),
    ("head -1 link_out/{sentinel,other}.txt", "outside"),
    ("ls {a,{b,c}}", "nested brace"),
    ("echo {1..3}", "brace ranges"),
    ("ls {a,b}{c,d}{e,f}{g,h}{i,j}{k,l}{m,n}", "more than 64"),
    ("rg --pre={sh,x} x", "runs another program"),
    ("sort -{o,u} x go.mod", "sort -o"),
    ("find . -{delete,print}", "deletes files"),
    (
        "diff <(git show HEAD~1:go.mod) go.mod",
        "git diff HEAD~1 -- go.mod",
    ),
    ("cat <(cat /etc/passwd)", "needs a shell"),
    (
        "diff go.mod <(cat ../outside/sentinel.txt)",
        "needs a shell",
    ),
    ("echo --output=../victim/x | xargs git log", "writes a file"),
    ("echo /etc/passwd | xargs git log --", "absolute path"),
    ("echo HEAD:.env | xargs git show", "secrets list"),
    (
        "git ls-tree HEAD | grep -F .env | head -1 | cut -c13-52 | xargs git cat-file -p",
        "named without its path",
    ),
    (
        "git ls-tree HEAD | grep -F .env | head -1 | cut -c13-52 | xargs git show",
        "named by id",
    ),
    (
        "echo --output=../victim/x | xargs git diff",
        "writes a file",
    ),
    ("echo -delete | xargs find .", "deletes files"),
    ("echo x | xargs xargs cat", "may feed"),
    ("echo -c id | xargs sh", "may feed"),
    ("echo x | xargs env", "may feed"),
    ("echo -r x y | xargs xxd", "writes the dump"),
    (
        "echo --rawfile x /etc/passwd | xargs jq -n",
        "needs a filter",
    ),
    ("cat .git/config", "git config --list"),
    ("head -50 .git/../.git/config", "git config --list"),
    ("cd .git && cat config", "git's own files"),
    ("cd .git/refs && ls", "git's own files"),
    ("grep -rn TOKEN .git/", "git's own files"),
    ("grep -rn TOKEN .git/.", "git's own files"),
    ("grep -r url .git/config", "git config --list"),
    ("rg -n TOKEN .git", "git's own files"),
    ("rg -n TOKEN --hidden .git/", "git's own files"),
    ("cd internal && grep -rn x ../.git", "git's own files"),
    ("ag TOKEN .git", "git's own files"),
    ("grep -n url .git/config", "git config --list"),
    (
        "awk 'BEGIN{ARGV[1]=\"/etc/passwd\"; ARGC=2} {print}'",
        "ARGV",
    ),
    // Round 3 (bash3). git's parse-options takes any unique prefix of a long option, and
    // clusters of short ones: each spelling of a refused option is refused.
    ("git grep --open=sh x", "pager"),
    ("git grep --open-files=sh x", "pager"),
    ("git grep -iOsh x", "`-O`"),
    ("git grep -nO'sh' x", "`-O`"),
    ("git grep -hif../outside/sentinel.txt go.mod", "`-f`"),
    (
        "git blame --conte=../outside/sentinel.txt go.mod",
        "--contents",
    ),
    ("git blame --ignore-revs-f=x go.mod", "ignore-revs-file"),
    ("git blame -wSx go.mod", "`-S`"),
    ("git log -pOx", "`-O`"),
    ("git diff --orderfile=x", "reads another file"),
    ("git diff --ext-d", "runs programs"),
    ("git log -p --textc", "runs programs"),
    ("git diff --outp=../victim/x", "writes a file"),
    ("git ls-files --exclude-fr=x -o", "reads patterns"),
    ("git ls-files -oXx", "`-X`"),
    ("git grep --recurse-submodules x", "submodules"),
    ("git diff --submodule=log", "submodules"),
    ("git describe --dirty", "writes the index"),
    ("git tag -v v1", "runs gpg"),
    ("git tag --verify v1", "runs gpg"),
    ("git rev-list --alternate-refs HEAD", "alternateRefsCommand"),
    // Options whose value is optional take it only when attached (`--color=auto`): the
    // next word is an operand, and it is path-checked as one.
    ("grep --color SECRET .env", "masked"),
    ("grep --colour SECRET .env go.mod", "masked"),
    ("diff --unified .env go.mod", "masked"),
    ("diff --context .env go.mod", "masked"),
    ("diff --color .env go.mod", "masked"),
    ("od -w .env", "masked"),
    ("od -c --width .env", "masked"),
    ("od --strings .env", "masked"),
    ("ls --color link_out/sentinel.txt", "outside"),
    // diff given a directory reads every file in it, masked ones and links out included.
    ("diff -N . docs", "every file in the directory"),
    ("diff docs internal", "every file in the directory"),
    ("diff go.mod docs", "every file in the directory"),
    // `grep -d recurse` is `grep -r` without the masks.
    ("grep -d recurse -n SECRET .", "grep -r"),
    ("grep --directories=recurse -n SECRET .", "grep -r"),
    ("grep -d rec -rn SECRET .", "grep -r"),
    // awk: wherever awks could read a `/` as division or regex differently, or the
    // checker could, the program is refused; `system`/`getline` anywhere.
    (
        "awk 'BEGIN { x = 1. / 2; system(\"touch ../victim/x\"); y = 1 / 1 }'",
        "system",
    ),
    (
        "awk 'BEGIN { x = 1. / 2; print \"x\" > \"../victim/x\"; y = 1 / 1 }'",
        "writes a file",
    ),
    (
        "awk 'BEGIN { x = 1. / 2; print \"touch ../victim/x\" | \"sh\"; y = 1 / 1 }'",
        "pipes",
    ),
    (
        "awk 'BEGIN { x++ / 2; print \"touch ../victim/x\" | \"sh\"; y = 1 / 1 }'",
        "`++`",
    ),
    (
        "awk 'BEGIN { if (\"x\" ~ /[]/\"]/) {} ; print \"id\" | \"sh\" ; y = \"\" }'",
        "`[…]`",
    ),
    (
        "awk 'BEGIN { if (1) /\"/; print \"id\" | \"sh\"; x = \"a\" }'",
        "pipes",
    ),
    (
        "awk '{ print $0 ~ /[]/]/ > \"../victim/x\" }' go.mod",
        "`[…]`",
    ),
    ("awk '{ x = \"system\" }' go.mod", "system"),
    // tree prints the tab-indented lines of `.info` files next to matching names; an
    // `.info` linked to `~/.gitconfig` would print its settings.
    ("tree --info", "`.info` files"),
    // Red team, stop 27. head and tail read `-5c` as "5 bytes" (their old syntax), so the
    // next word is a file, not the value of `-c`: it must be path-checked as one.
    ("head -5c .env", "old syntax"),
    ("tail -8c .env", "old syntax"),
    ("head -99c ../outside/sentinel.txt", "old syntax"),
    ("tail -99c link_out/sentinel.txt", "old syntax"),
    ("head -5c passwd", "old syntax"),
    // git's other configuration files hold credentials like `.git/config`.
    ("cat .git/modules/vendor/lib/config", "git config --file"),
    ("grep -n TOKEN .git/config.worktree", "git config --file"),
    (
        "head .git/modules/vendor/../vendor/lib/config",
        "git config --file",
    ),
    (
        "cd .git/modules && cat vendor/lib/config",
        "git's own files",
    ),
    // Red team, stop 28. `git log -L` runs without the secret excludes (git refuses
    // pathspecs beside it), so its file is checked like any path argument, its range
    // must parse as git parses it, and nothing may widen the diff past that file.
    ("git log -L1,1:.env", "masked"),
    ("git log -L 1,1:env_alias.txt", "masked"),
    ("git log -L1,1:hard.txt", "masked"),
    ("git log -L1,1:config/.env.production", "masked"),
    ("git log -L1,1:certs/server.key", "masked"),
    ("git show -L1,1:.env", "masked"),
    ("git log -L :main:.env", "masked"),
    ("git log -L1,1:/etc/passwd", "absolute path"),
    ("git log -L1,1:../outside/sentinel.txt", "`..`"),
    (
        "git log -L1,1:link_out/sentinel.txt",
        "outside the repository",
    ),
    ("git log -L1,1:-- -- .env", "masked"),
    // A value made by `$(…)` or xargs is refused by the static pass (it sees `.` or
    // nothing); an `-L` item fed to xargs is checked once the line is built.
    (
        "echo 1,1:.env | xargs git log -L",
        "needs a range and a file",
    ),
    (
        "git log -L $(echo 1,1:.env)",
        "not a range this tool can check",
    ),
    ("echo -L1,1:.env | xargs git log", "masked"),
    ("git -C internal log -L1,1:../.env", "masked"),
    ("git log -L1,1:docs/../.env", "masked"),
    ("git log -L1,1:go.mod -L1,1:.env", "masked"),
    ("git log -L1,1:.git/config", "git config"),
    ("git log -L/a:x/,+1:.env", "not a range this tool can check"),
    (
        "git log -L '/a\\/,+1:go.mod'",
        "not a range this tool can check",
    ),
    (
        "git log -L ':a\\:b:go.mod'",
        "not a range this tool can check",
    ),
    ("git log -L go.mod", "not a range this tool can check"),
    ("git log -L", "needs a range and a file"),
    (
        "git log -L1,1:go.mod -- README.md",
        "cannot be combined with paths",
    ),
    (
        "git log -L1,1:go.mod README.md",
        "cannot be combined with paths",
    ),
    ("git log -M -L1,1:go.mod", "rename and copy detection"),
    (
        "git log --find-copies-harder -L1,1:go.mod",
        "rename and copy detection",
    ),
    ("git log -L1,1:go.mod -C", "rename and copy detection"),
    ("git log -L1,1:go.mod --follow", "rename and copy detection"),
    (
        "git log -L1,1:go.mod --full-diff",
        "rename and copy detection",
    ),
    // Red team, stop 30. `git log --follow` takes one pathspec, so it too runs without
    // the secret excludes: the path is checked, and since a rename may lead back to a
    // masked file, nothing that shows file contents may go with it.
    ("git log --follow -p -- go.mod", "show no file contents"),
    (
        "git log --follow --patch --oneline -- go.mod",
        "show no file contents",
    ),
    (
        "git log --follow -STOKEN -- go.mod",
        "show no file contents",
    ),
    (
        "git log --follow -GTOKEN -- go.mod",
        "show no file contents",
    ),
    (
        "git log --follow --full-diff -- go.mod",
        "show no file contents",
    ),
    ("git log --follow -- .env", "masked"),
    ("git log --follow -- go.mod README.md", "exactly one file"),
    ("git log --follow", "exactly one file"),
];

#[test]
fn every_attack_is_refused_with_a_reason() {
    every_attack_is_refused_under(&Fixture::new());
}

#[test]
fn every_attack_is_refused_under_each_forced_confinement() {
    for c in FORCED {
        every_attack_is_refused_under(&Fixture::forced(c));
    }
}

fn every_attack_is_refused_under(f: &Fixture) {
    let mut failures = Vec::new();
    for (cmd, why) in BLOCKED {
        match f.run(cmd) {
            Ok(out) => failures.push(format!("`{cmd}` ran: {:?}", out.text)),
            Err(e) => {
                let msg = e.to_string();
                if !msg.starts_with("Command blocked: ") || !msg.contains(why) {
                    failures.push(format!("`{cmd}`: want `{why}` in: {msg}"));
                }
            }
        }
    }
    assert!(BLOCKED.len() >= 150, "{}", BLOCKED.len());
    assert!(
        failures.is_empty(),
        "{} of {}:\n{}",
        failures.len(),
        BLOCKED.len(),
        failures.join("\n")
    );
    assert_eq!(f.victim_entries(), 0);
    assert!(f.markers().is_empty(), "{:?}", f.markers());
    assert!(!f.root.path().join("out.txt").exists());
}

/// Commands that are allowed to run but must not leak: searches skip masked files, links
/// out are not followed, git's hostile settings never run.
pub const NEUTRALISED: &[&str] = &[
    "grep -rn SENTINEL .",
    "grep -rn SECRET .",
    "grep -rn PRIVATE .",
    "grep -rn . .",
    "grep -rln API_KEY .",
    "find . -type f | xargs cat",
    "find . | xargs grep -n SENTINEL",
    "find . -type f -print0 | xargs -0 grep -n .",
    "ls -a | xargs cat",
    "cat *",
    "cat */*",
    "grep -n . * 2>&1",
    "head -100 * .* 2>&1",
    "cat .env.example",
    "cat .e*",
    "git status",
    "git status --porcelain",
    "git diff",
    "git diff HEAD",
    "git log -p",
    "git log --stat",
    "git show",
    "git show --stat",
    "git blame internal/brain/plan.go",
    "git grep -n .",
    "git grep -n SECRET",
    "git log -p --all",
    "git branch -a",
    "git tag -l",
    "git ls-files -s",
    "git ls-tree -r HEAD",
    "git diff --cached",
    "git log --format=%H%n%B",
    "git shortlog HEAD",
    "awk 'BEGIN { for (k in ENVIRON) print k \"=\" ENVIRON[k] }'",
    "wc -c * 2>&1",
    "du -a .",
    "stat -c %n * .*",
    "tree -a",
    "git remote -v",
    "git config --list",
    "git config --list --show-origin",
    "git config --get-regexp .",
    "git config --get http.https://example.com/.extraheader",
    "git config --get credential.helper",
    "git config --get sendemail.smtppass",
    "git config --get remote.origin.url",
    "git config --get-all user.password",
    "git config get --all user.password",
    "git config list --show-scope",
    "git remote -v | cut -d@ -f1",
    "git remote get-url --all origin | cut -d/ -f3",
    "git stash list",
    "git stash show",
    "git reflog",
    "git cat-file -p HEAD",
    "jq . docs/config.json",
    "echo --pre=sh | xargs rg -n option",
    "grep -rn ghp .",
    "grep -n ref README.md .git/HEAD",
    "rg -n --hidden ghp",
    "rg -n --hidden -uu password",
    "cat .git/*",
    "find . -path '*/.git/*' -type f | xargs grep -n url",
    "git log --all --format=%H%n%B",
    "find . | xargs awk '{print}'",
    "find . -type f | xargs sort",
    "echo -o ../victim/x | xargs sort",
    "ls -a | xargs sha256sum",
    "echo .env ../outside/sentinel.txt /etc/passwd | xargs cat",
    "jq -n 'input' docs/config.json",
    "jq -s . docs/config.json docs/config.json",
    "od -c * 2>&1",
    "xxd -p .e* 2>&1",
    "hexdump -C * 2>&1",
    "sha256sum * .* 2>&1",
    "md5sum * 2>&1",
    "base64 * 2>&1",
    "column -t * 2>&1",
];

pub fn rg_neutralised() -> Vec<&'static str> {
    vec![
        "rg -n SECRET",
        "rg -n SECRET --hidden --no-ignore",
        "rg -n SENTINEL --hidden --no-ignore",
        "rg -n . --hidden --no-ignore -uu",
        "rg --files --hidden | xargs cat",
        "rg -n PRIVATE -g '*.key' --hidden --no-ignore",
        // rg applies every `--iglob` after every `--glob`: the masks are `--iglob`s.
        "rg -n --hidden --no-ignore --iglob '*' SECRET",
        "rg -n --hidden --no-ignore --iglob '*' PRIVATE",
        "rg -n --hidden --no-ignore --iglob '*' -uu TOKEN",
        "rg -n --hidden --iglob '*' --iglob '**/.git/config' url",
    ]
}

fn check_neutralised(f: &Fixture) {
    let mut cmds: Vec<&str> = NEUTRALISED.to_vec();
    if explore_tools::bash::exec::find_program("rg").is_some() {
        cmds.extend(rg_neutralised());
    }
    let tree = explore_tools::bash::exec::find_program("tree").is_some();
    let mut failures = Vec::new();
    for cmd in cmds {
        if cmd.starts_with("tree") && !tree {
            continue;
        }
        let text = match f.run(cmd) {
            Ok(out) => out.text,
            Err(e) => {
                failures.push(format!("`{cmd}` was refused: {e}"));
                continue;
            }
        };
        for bad in [
            SENTINEL,
            SECRET,
            KEY_SECRET,
            TOKEN,
            "root:x:0:0",
            "CARGO",
            "RUST",
        ] {
            if text.contains(bad) {
                failures.push(format!("`{cmd}` leaked `{bad}`:\n{text}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(
        f.markers().is_empty(),
        "hostile git settings ran: {:?}",
        f.markers()
    );
    assert_eq!(f.victim_entries(), 0);
}

#[test]
fn allowed_commands_never_leak_under_the_best_confinement() {
    let f = Fixture::new();
    eprintln!("layers active: {:?}", f.tool.layers());
    check_neutralised(&f);
}

#[test]
fn allowed_commands_never_leak_under_the_fallback() {
    check_neutralised(&Fixture::fallback());
}

#[test]
fn allowed_commands_never_leak_under_each_forced_confinement() {
    for c in FORCED {
        let f = Fixture::forced(c);
        eprintln!("{c:?}: layers active: {:?}", f.tool.layers());
        check_neutralised(&f);
    }
}

#[test]
fn the_fixture_is_really_hostile() {
    // Plain git, without our settings, runs the repository's external diff: the marker
    // appears. The same command through the tool leaves none (checked above and here).
    let f = Fixture::new();
    let st = std::process::Command::new("git")
        .args(["--no-pager", "diff"])
        .current_dir(f.root.path())
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_WORK_TREE", f.root.path())
        .output()
        .unwrap();
    assert!(st.status.success() || !st.status.success());
    assert!(
        !f.markers().is_empty(),
        "plain git did not run the hostile settings"
    );
    for m in f.markers() {
        std::fs::remove_file(m).unwrap();
    }
    let out = f.run("git diff").unwrap();
    assert!(out.text.contains("+// changed"), "{}", out.text);
    assert!(f.markers().is_empty(), "{:?}", f.markers());
}

#[test]
fn masked_items_fed_to_xargs_are_skipped_with_a_note() {
    let f = Fixture::new();
    let out = f.run("echo .env go.mod | xargs cat").unwrap();
    assert_eq!(
        out.text,
        "module example.com/relay\n\ngo 1.22\nxargs: skipped an item: `.env` is masked. `.env` is on the secrets list (environment files hold credentials) and is never shown to the model. Its name may be cited; for configuration, look for a `.env.example` or the code that reads the setting.\n"
    );
}

#[test]
fn a_glob_match_that_looks_like_an_option_stays_a_file_name() {
    let f = Fixture::new();
    // `rg *` would see `--pre=sh` as an option if the glob were passed through raw.
    assert_eq!(f.tool.check("cat *").unwrap(), vec!["cat".to_string()]);
    let out = f.run("head -1 *sh").unwrap();
    assert_eq!(out.text, "option-named file\n");
}

#[test]
fn a_secret_blob_named_by_id_is_refused() {
    let f = Fixture::new();
    let out = std::process::Command::new("git")
        .args(["rev-parse", "HEAD:.env"])
        .current_dir(f.root.path())
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .output()
        .unwrap();
    let sha = String::from_utf8(out.stdout).unwrap().trim().to_string();
    assert_eq!(sha.len(), 40);
    for cmd in [
        format!("git show {sha}"),
        format!("git show {}", &sha[..8]),
        format!("git diff {sha} {sha}"),
    ] {
        let err = f.run(&cmd).unwrap_err().to_string();
        assert!(err.starts_with("Command blocked: `"), "{err}");
        assert!(err.contains("(a blob) named by id"), "{err}");
    }
    // Every other spelling of the same blob: a peeled id, a tag that points at it.
    std::process::Command::new("git")
        .args(["tag", "envtag", &sha])
        .current_dir(f.root.path())
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .output()
        .unwrap();
    for cmd in [
        format!("git show {sha}^{{}}"),
        format!("git show {}^{{blob}}", &sha[..8]),
        format!("git diff {sha}^{{}} {}^{{}}", &sha[..10]),
        format!("git grep -n . {sha}^{{}}"),
        "git show envtag".to_string(),
        "git show envtag^{}".to_string(),
        format!("git log -p {sha}^{{}}"),
    ] {
        let err = f.run(&cmd).unwrap_err().to_string();
        assert!(err.starts_with("Command blocked: `"), "{cmd}: {err}");
        assert!(
            err.contains("(a blob) named without its path"),
            "{cmd}: {err}"
        );
        assert!(!err.contains(SECRET), "{cmd}: {err}");
    }
    for cmd in [
        format!("git cat-file -p {sha}"),
        format!("git cat-file -p {}", &sha[..8]),
        format!("git cat-file -p {sha}^{{}}"),
        "git cat-file -p envtag".to_string(),
    ] {
        let err = f.run(&cmd).unwrap_err().to_string();
        assert!(err.starts_with("Command blocked: `"), "{err}");
        assert!(err.contains("(a blob) named without its path"), "{err}");
    }
    // Its type and size say nothing of its contents.
    assert_eq!(f.ok(&format!("git cat-file -t {sha}")), "blob\n");
    // Commits named by id still work.
    let head = f.ok("git rev-parse HEAD");
    assert_eq!(
        f.ok(&format!("git cat-file -t {}", head.trim())),
        "commit\n"
    );
    assert_eq!(
        f.ok(&format!("git show -s --format=%s {}", head.trim())),
        "initial import\n"
    );
}

/// A named pipe in the repository is refused up front: reading it would hang until the
/// timeout. (Recursive searches skip it on their own.)
#[test]
fn a_named_pipe_is_refused_not_waited_on() {
    use explore_tools::Tool;
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.go"), "package a\n").unwrap();
    let status = std::process::Command::new("mkfifo")
        .arg(dir.path().join("pipe"))
        .status()
        .unwrap();
    assert!(status.success());
    let tool = explore_tools::bash::BashTool::new(
        explore_tools::RepoRoot::new(dir.path()).unwrap(),
        explore_tools::bash::BashOptions::default(),
    );
    for cmd in [
        "cat pipe",
        "head -5 pipe",
        "grep x pipe",
        "wc -l pipe",
        "cat ./pipe a.go",
    ] {
        let err = tool
            .call(&serde_json::json!({ "command": cmd }))
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("`pipe` is a named pipe (FIFO), not a regular file")
                || err.contains("`./pipe` is a named pipe (FIFO), not a regular file"),
            "{cmd}: {err}"
        );
    }
    let ok = tool
        .call(&serde_json::json!({ "command": "grep -rn package ." }))
        .unwrap();
    assert_eq!(ok.text.trim(), "./a.go:1:package a");
}

#[test]
fn git_config_never_follows_an_include_out_of_the_repository() {
    // An `include.path` outside the repository: under Landlock git cannot even open it
    // (and refuses to run); under the fallback, `git config --list` would print it but
    // for `--no-includes`.
    let f = Fixture::fallback();
    let inc = f.base().join("outside/included.gitconfig");
    std::fs::write(&inc, format!("[included]\n\tsecret = {SENTINEL}\n")).unwrap();
    let cfg = f.root.path().join(".git/config");
    let mut text = std::fs::read_to_string(&cfg).unwrap();
    text.push_str(&format!("[include]\n\tpath = {}\n", inc.display()));
    std::fs::write(&cfg, text).unwrap();
    let out = f.ok("git config --list");
    assert!(out.contains("core.bare=false"), "{out}");
    assert!(!out.contains(SENTINEL), "{out}");
    assert!(!out.contains(TOKEN), "{out}");
    assert_eq!(
        f.ok("git config --get included.secret"),
        "[exit status 1]\n"
    );
}

#[test]
fn credentials_in_any_output_lose_their_userinfo() {
    let f = Fixture::new();
    assert_eq!(
        f.ok("echo https://u:p@example.com/x | cut -d/ -f3"),
        "u:p@example.com\n",
        "echo shows what the model typed itself"
    );
    assert_eq!(
        f.ok("git remote -v | head -1 | cut -f2 | cut -d/ -f3"),
        "***@example.com\n"
    );
    assert_eq!(
        f.ok("git config --get-regexp 'extraheader|password|smtppass|credential' | sort"),
        "credential.helper ***\nhttp.https://example.com/.extraheader ***\nsendemail.smtppass ***\nuser.password ***\n"
    );
}

#[test]
fn each_refusal_names_the_layer_that_refused() {
    use explore_tools::bash::refusal::RefusedBy;
    let f = Fixture::new();
    let cases: &[(&str, RefusedBy)] = &[
        ("echo \u{202E}x", RefusedBy::InputGate),
        ("echo x > out.txt", RefusedBy::Parse),
        ("ls | (cat)", RefusedBy::Parse),
        ("diff <(git show HEAD~1:go.mod) go.mod", RefusedBy::Parse),
        ("rm -rf .", RefusedBy::Program),
        ("git push", RefusedBy::Program),
        ("python3 -c 1", RefusedBy::Program),
        ("sort -o x go.mod", RefusedBy::Option),
        ("find . -delete", RefusedBy::Option),
        ("jq -n env", RefusedBy::Option),
        ("git config --unset core.bare", RefusedBy::Option),
        ("cat /etc/passwd", RefusedBy::Path),
        ("cat ../outside/sentinel.txt", RefusedBy::Path),
        ("cat link_out/sentinel.txt", RefusedBy::Path),
        ("cd .. && ls", RefusedBy::Path),
        ("git config --global --list", RefusedBy::Path),
        ("sha256sum -c docs/evil.sha256", RefusedBy::Path),
        ("cat .env", RefusedBy::Secrets),
        ("cat env_alias.txt", RefusedBy::Secrets),
        ("cat hard.txt", RefusedBy::Secrets),
        ("git show HEAD:.env", RefusedBy::Secrets),
        ("cat .git/config", RefusedBy::Secrets),
        ("grep -n x {go.mod,.env}", RefusedBy::Secrets),
    ];
    let mut wrong = Vec::new();
    for (cmd, want) in cases {
        match f.tool.vet_command(cmd) {
            Ok(p) => wrong.push(format!("`{cmd}` passed: {p:?}")),
            Err(b) if b.by() != *want => {
                wrong.push(format!("`{cmd}`: {} (want {want}): {b}", b.by()))
            }
            Err(_) => {}
        }
        // The model still reads exactly `Command blocked: <reason>`.
        let reason = f.tool.vet_command(cmd).unwrap_err().reason().to_string();
        let shown = f.run(cmd).unwrap_err().to_string();
        assert!(
            shown.starts_with(&format!("Command blocked: {reason}")),
            "{shown}"
        );
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));

    // Git where there is no plain `.git` directory; a glob that matches too much.
    let dir = tempfile::tempdir().unwrap();
    for i in 0..2001 {
        std::fs::write(dir.path().join(format!("f{i}.txt")), "x").unwrap();
    }
    let tool = explore_tools::bash::BashTool::new(
        explore_tools::RepoRoot::new(dir.path()).unwrap(),
        explore_tools::bash::BashOptions::default(),
    );
    assert_eq!(
        tool.vet_command("git log").unwrap_err().by(),
        RefusedBy::Unavailable
    );
    assert_eq!(
        tool.vet_command("cat *.txt").unwrap_err().by(),
        RefusedBy::Limits
    );
}

/// A `.git` directory can send git elsewhere: `commondir` (another repository's refs,
/// objects and config: `git log --all -p` would show it), `objects/info/alternates`
/// (another object store) or a link such as `packed-refs -> FILE` (every git command
/// reads it, and prints the first line it cannot parse). git is then unavailable, with
/// the reason; the fallback is used since Landlock and bubblewrap deny those reads anyway.
#[test]
fn a_git_directory_that_leads_outside_disables_git() {
    use crate::fixture::SENTINEL;
    for hazard in ["commondir", "alternates", "packed-refs"] {
        let f = Fixture::fallback();
        let git = f.root.path().join(".git");
        let outside = f.base().join("outside");
        match hazard {
            "commondir" => std::fs::write(git.join("commondir"), outside.display().to_string()),
            "alternates" => std::fs::write(
                git.join("objects/info/alternates"),
                format!("{}\n", outside.display()),
            ),
            _ => {
                let _ = std::fs::remove_file(git.join("packed-refs"));
                std::os::unix::fs::symlink(outside.join("sentinel.txt"), git.join("packed-refs"))
            }
        }
        .unwrap();
        let err = f.run("git log --all --format=%s").unwrap_err().to_string();
        assert!(err.starts_with("Command blocked: "), "{hazard}: {err}");
        assert!(err.contains("git is not available here"), "{hazard}: {err}");
        assert!(!err.contains(SENTINEL), "{hazard}: {err}");
        // The rest of the tool still works.
        assert_eq!(f.ok("head -1 go.mod"), "module example.com/relay\n");
    }
}

/// Settings in the repository's config that name a file git reads: `blame.ignoreRevsFile`
/// outside the repository would print its first line in git's error.
#[test]
fn git_never_reads_files_the_repository_config_names_outside() {
    use crate::fixture::SENTINEL;
    let f = Fixture::fallback();
    let cfg = f.root.path().join(".git/config");
    let mut text = std::fs::read_to_string(&cfg).unwrap();
    let sentinel = f.base().join("outside/sentinel.txt");
    text.push_str(&format!(
        "[blame]\n\tignoreRevsFile = {s}\n[mailmap]\n\tfile = {s}\n[diff]\n\torderFile = {s}\n",
        s = sentinel.display()
    ));
    std::fs::write(&cfg, text).unwrap();
    for cmd in [
        "git blame go.mod",
        "git annotate go.mod",
        "git log -p --format=%aN",
        "git shortlog -s HEAD",
        "git diff HEAD",
    ] {
        let out = f.ok(cmd);
        assert!(!out.contains(SENTINEL), "`{cmd}`: {out}");
    }
    assert!(
        f.ok("git blame go.mod")
            .contains("module example.com/relay")
    );
}

/// Under the fallback a write git attempts (refreshing the index of a stat-dirty file on
/// `git diff`) fails with EFBIG instead of killing git half-way, which would leave
/// `.git/index.lock` behind and break the user's next git command.
#[test]
fn git_diff_under_the_fallback_leaves_no_index_lock() {
    let f = Fixture::fallback();
    let file = std::fs::File::options()
        .append(true)
        .open(f.root.path().join("go.mod"))
        .unwrap();
    file.set_modified(std::time::SystemTime::now() + std::time::Duration::from_secs(60))
        .unwrap();
    drop(file);
    let out = f.ok("git diff");
    assert!(out.contains("+// changed"), "{out}");
    assert!(!f.root.path().join(".git/index.lock").exists());
    assert!(
        f.ok("git status --short")
            .contains("M internal/brain/plan.go")
    );
}

/// `$(…)` that gives more words than any command should take is refused before they are
/// all path-checked (a repository file of a million names would keep the tool busy past
/// the deadline, and the kernel would refuse the argument list anyway).
#[test]
fn an_expansion_into_too_many_words_is_refused() {
    let f = Fixture::new();
    std::fs::write(f.root.path().join("names.txt"), "a/b\n".repeat(10_001)).unwrap();
    let err = f.run("cat $(cat names.txt)").unwrap_err().to_string();
    assert!(
        err.starts_with("Command blocked: `$(…)` gave 10002 words"),
        "{err}"
    );
    // The static pass cannot know the count; the limit holds once the words are known.
    assert!(f.tool.vet_command("cat $(cat names.txt)").is_ok());
    assert!(
        f.ok("cat $(cat docs/notes.txt) | wc -l")
            .starts_with("0\ncat: alpha: No such file")
    );
}

/// A repository that holds another one (a vendored clone with its own `.git`): that
/// repository's configuration is as secret as ours. Naming it is refused, searches and
/// `xargs` skip it, and the OS confinement hides it, under each confinement.
#[test]
fn git_config_files_of_nested_repositories_are_masked() {
    use explore_tools::bash::{BashOptions, BashTool, Confinement};
    use explore_tools::{RepoRoot, Tool};
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path();
    std::fs::write(repo.join("main.go"), "package main\n").unwrap();
    let nested = repo.join("third_party/lib/.git");
    std::fs::create_dir_all(nested.join("modules/sub")).unwrap();
    std::fs::write(nested.join("HEAD"), "ref: refs/heads/main\n").unwrap();
    let cfg = format!("[http]\n\textraheader = AUTHORIZATION: basic {TOKEN}\n");
    std::fs::write(nested.join("config"), &cfg).unwrap();
    std::fs::write(nested.join("modules/sub/config"), &cfg).unwrap();
    for c in [Confinement::Auto, Confinement::Off] {
        let tool = BashTool::new(
            RepoRoot::new(repo).unwrap(),
            BashOptions {
                confinement: c,
                ..BashOptions::default()
            },
        );
        let run = |cmd: &str| tool.call(&serde_json::json!({ "command": cmd }));
        for cmd in [
            "cat third_party/lib/.git/config",
            "grep -n TOKEN third_party/lib/.git/modules/sub/config",
            "grep -rn TOKEN third_party/lib/.git",
            "rg -n TOKEN third_party/lib/.git",
            "cd third_party/lib/.git",
        ] {
            let err = run(cmd).unwrap_err().to_string();
            assert!(err.starts_with("Command blocked: "), "{c:?} `{cmd}`: {err}");
            assert!(!err.contains(TOKEN), "{c:?} `{cmd}`: {err}");
        }
        for cmd in [
            "grep -rn TOKEN .",
            "rg -n --hidden TOKEN",
            "rg -n --hidden --no-ignore -uu --iglob '*' TOKEN",
            "find . -type f | xargs cat",
            "cat third_party/lib/.git/*",
            "head -c 300 third_party/lib/.git/HEAD third_party/lib/.git/co*",
        ] {
            let out = match run(cmd) {
                Ok(o) => o.text,
                Err(e) => e.to_string(),
            };
            assert!(!out.contains(TOKEN), "{c:?} `{cmd}` leaked:\n{out}");
        }
        // The rest of the nested repository reads as before.
        assert_eq!(
            run("cat third_party/lib/.git/HEAD").unwrap().text,
            "ref: refs/heads/main\n"
        );
    }
}

/// A program's own memory is capped (`RLIMIT_DATA`): an awk or jq program that doubles a
/// string could otherwise take the host's memory within the deadline. This one stops at
/// 2 GiB (the cap), which is safe to run without the cap too.
#[test]
fn a_program_cannot_take_the_hosts_memory() {
    let cmd = "awk 'BEGIN { s = \"x\"; for (i = 0; i < 31; i++) s = s s; print length(s) }'";
    for f in [
        Fixture::new(),
        Fixture::forced(explore_tools::bash::Confinement::Bubblewrap),
        Fixture::fallback(),
    ] {
        let out = f.ok(cmd);
        assert!(!out.contains("2147483648"), "{:?}: {out}", f.tool.layers());
        assert!(
            out.contains("out of memory"),
            "{:?}: {out}",
            f.tool.layers()
        );
        // Ordinary commands are far below the cap.
        assert_eq!(f.ok("head -1 go.mod"), "module example.com/relay\n");
    }
}

/// `git log -L` follows its lines back through renames: a file renamed from a secret one
/// (`deploy/.env.staging` → `deploy/settings.txt`, the token then rotated) would show the
/// secret's history under its old name. The tool adds `--no-renames` last, so the history
/// stops at the rename. Plain git shows the token (the fixture has teeth).
#[test]
fn a_line_log_does_not_follow_a_secret_file_through_a_rename() {
    const STAGING: &str = "STAGING-SECRET-555";
    let f = Fixture::new();
    let repo = f.root.path();
    let git = |args: &[&str]| {
        let out = std::process::Command::new("git")
            .args(["-c", "user.name=t", "-c", "user.email=t@e", "-c"])
            .args(["core.hooksPath=/dev/null", "-c", "commit.gpgsign=false"])
            .args(["-c", "core.fsmonitor=false"])
            .args(args)
            .current_dir(repo)
            // The fixture's own config points `core.worktree` outside.
            .env("GIT_DIR", repo.join(".git"))
            .env("GIT_WORK_TREE", repo)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .output()
            .unwrap();
        assert!(out.status.success(), "git {args:?}: {out:?}");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    std::fs::create_dir_all(repo.join("deploy")).unwrap();
    // Long enough that the rename with one changed line is still a rename to git.
    let lines = |token: &str| {
        let pad: String = (1..=20)
            .map(|i| format!("SETTING_{i}=value {i}\n"))
            .collect();
        format!("TOKEN={token}\n{pad}")
    };
    std::fs::write(repo.join("deploy/.env.staging"), lines(STAGING)).unwrap();
    git(&["add", "deploy/.env.staging"]);
    git(&["commit", "-q", "-m", "staging env"]);
    git(&["mv", "deploy/.env.staging", "deploy/settings.txt"]);
    std::fs::write(repo.join("deploy/settings.txt"), lines("rotated")).unwrap();
    git(&["add", "deploy/settings.txt"]);
    git(&["commit", "-q", "-m", "settings"]);
    let plain = git(&["log", "--format=%s", "-L1,2:deploy/settings.txt"]);
    assert!(plain.contains(STAGING), "{plain}");
    let out = f.ok("git log --format=%s -L1,2:deploy/settings.txt");
    assert!(
        out.starts_with("settings\n\ndiff --git a/deploy/settings.txt b/deploy/settings.txt\n"),
        "{out}"
    );
    assert!(out.contains("+TOKEN=rotated\n"), "{out}");
    assert!(!out.contains(STAGING) && !out.contains(".env"), "{out}");
    assert!(!out.contains("staging env"), "{out}");
}
