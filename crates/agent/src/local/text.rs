//! Words: how questions, identifiers, paths and comments become comparable terms.
//!
//! Code says `HandleWebhook`, `handle_webhook` and `handlers.py` where a question says
//! "how are webhooks handled". All of them go through the same steps here: split
//! identifiers at case changes, underscores and punctuation; lower-case; drop stop words;
//! and reduce each word with a deliberately light suffix stemmer, so that handle, handled,
//! handler, handlers and handling all become `handl`. A small synonym table adds the
//! words code uses for what people call something else (retry ~ backoff).

/// Splits an identifier or path into its words: `HTTPClient` → `http`, `client`;
/// `post_transaction` → `post`, `transaction`; `internal/webhook/handler.go` → `internal`,
/// `webhook`, `handler`, `go`. Words are lower-cased, not stemmed.
pub fn split_words(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    for chunk in s.split(|c: char| !c.is_alphanumeric()) {
        if chunk.is_empty() {
            continue;
        }
        let chars: Vec<char> = chunk.chars().collect();
        let mut start = 0;
        for i in 1..chars.len() {
            let (prev, cur) = (chars[i - 1], chars[i]);
            let next_lower = chars.get(i + 1).is_some_and(|c| c.is_lowercase());
            let boundary = (prev.is_lowercase() && cur.is_uppercase())
                || (prev.is_uppercase() && cur.is_uppercase() && next_lower)
                || (prev.is_alphabetic() && cur.is_ascii_digit())
                || (prev.is_ascii_digit() && cur.is_alphabetic());
            if boundary {
                out.push(chars[start..i].iter().collect::<String>().to_lowercase());
                start = i;
            }
        }
        out.push(chars[start..].iter().collect::<String>().to_lowercase());
    }
    out
}

/// Whether a word is a stop word misspelt by one letter left out, added, changed or two
/// swapped ("wher", "waht", "defiend"): a typo in the question's frame, not a topic.
pub fn near_stopword(w: &str) -> bool {
    stopword_meant(w).is_some()
}

/// The stop word `w` misspells by one letter ([`near_stopword`]), if any.
pub fn stopword_meant(w: &str) -> Option<String> {
    let chars: Vec<char> = w.chars().collect();
    if chars.len() < 3 || is_stopword(w) {
        return None;
    }
    let letters = 'a'..='z';
    let mut candidates: Vec<String> = Vec::new();
    for i in 0..=chars.len() {
        for c in letters.clone() {
            let mut v = chars.clone();
            v.insert(i, c);
            candidates.push(v.into_iter().collect());
        }
    }
    for i in 0..chars.len() {
        let mut v = chars.clone();
        v.remove(i);
        candidates.push(v.into_iter().collect());
        for c in letters.clone() {
            let mut v = chars.clone();
            v[i] = c;
            candidates.push(v.into_iter().collect());
        }
        if i + 1 < chars.len() {
            let mut v = chars.clone();
            v.swap(i, i + 1);
            candidates.push(v.into_iter().collect());
        }
    }
    candidates
        .into_iter()
        .find(|c| c.len() >= 4 && is_stopword(c))
}

/// English and question words that carry no meaning for ranking, plus words that every
/// question about code uses ("code", "logic", "work").
pub fn is_stopword(w: &str) -> bool {
    matches!(
        w,
        "a" | "an"
            | "the"
            | "is"
            | "are"
            | "was"
            | "were"
            | "be"
            | "been"
            | "being"
            | "do"
            | "does"
            | "did"
            | "done"
            | "have"
            | "has"
            | "had"
            | "how"
            | "what"
            | "whats"
            | "where"
            | "wheres"
            | "when"
            | "which"
            | "who"
            | "whom"
            | "why"
            | "in"
            | "on"
            | "at"
            | "of"
            | "to"
            | "for"
            | "from"
            | "by"
            | "with"
            | "into"
            | "and"
            | "or"
            | "not"
            | "it"
            | "its"
            | "this"
            | "that"
            | "these"
            | "those"
            | "there"
            | "here"
            | "we"
            | "our"
            | "i"
            | "me"
            | "my"
            | "you"
            | "your"
            | "they"
            | "them"
            | "can"
            | "could"
            | "should"
            | "would"
            | "will"
            | "get"
            | "gets"
            | "got"
            | "happen"
            | "happens"
            | "any"
            | "all"
            | "some"
            | "each"
            | "every"
            | "if"
            | "then"
            | "than"
            | "so"
            | "as"
            | "up"
            | "out"
            | "about"
            | "point"
            | "points"
            | "reach"
            | "reaches"
            | "logic"
            | "code"
            | "work"
            | "works"
            | "working"
            | "thing"
            | "things"
            | "stuff"
            | "place"
            | "places"
            | "part"
            | "find"
            | "show"
            | "list"
            | "explain"
            | "describe"
            | "implemented"
            | "defined"
            | "located"
            | "live"
            | "lives"
            | "go"
            | "py"
            | "s"
    )
}

/// A light suffix stemmer: plural, -ed, -ing, -er, -ation, final e and y, doubled final
/// consonants. It is not Porter's algorithm; it only has to map the forms questions and
/// code use for one idea to the same string.
pub fn stem(word: &str) -> String {
    let mut w: String = word.to_lowercase();
    let len = |w: &String| w.chars().count();
    if w.chars().any(|c| !c.is_ascii_alphabetic()) || len(&w) <= 3 {
        return w;
    }
    // Words whose regular stem would collide with a much commoner one.
    if w == "setting" || w == "settings" {
        return "setting".into();
    }
    // plurals
    if w.ends_with("ies") && len(&w) > 4 {
        w.truncate(w.len() - 3);
        w.push('i');
    } else if w.ends_with("sses") {
        w.truncate(w.len() - 2);
    } else if w.ends_with('s') && !w.ends_with("ss") && !w.ends_with("us") && !w.ends_with("is") {
        w.truncate(w.len() - 1);
    }
    // -ied, -ing, -ed
    if w.ends_with("ied") && len(&w) > 4 {
        w.truncate(w.len() - 3);
        w.push('i');
    } else if w.ends_with("ing") && len(&w) >= 6 {
        w.truncate(w.len() - 3);
    } else if w.ends_with("ed") && len(&w) >= 5 {
        w.truncate(w.len() - 2);
    }
    // -ation, -er
    if w.ends_with("ation") && len(&w) >= 8 {
        w.truncate(w.len() - 3);
    } else if w.ends_with("er") && len(&w) >= 7 {
        w.truncate(w.len() - 2);
    }
    // final e and y
    if w.ends_with('e') && len(&w) > 4 {
        w.truncate(w.len() - 1);
    } else if w.ends_with('y')
        && len(&w) > 3
        && !w[..w.len() - 1].ends_with(['a', 'e', 'i', 'o', 'u'])
    {
        w.truncate(w.len() - 1);
        w.push('i');
    }
    // doubled final consonant (plann → plan), but not ll/ss/zz/ff
    let b = w.as_bytes();
    if b.len() >= 4 {
        let (x, y) = (b[b.len() - 2], b[b.len() - 1]);
        if x == y
            && !matches!(
                x,
                b'l' | b's' | b'z' | b'f' | b'a' | b'e' | b'i' | b'o' | b'u'
            )
        {
            w.truncate(w.len() - 1);
        }
    }
    w
}

/// The index terms of a piece of code text (identifiers, paths, comments): split, stop
/// words and one-letter words dropped, stemmed.
pub fn index_terms(s: &str) -> Vec<String> {
    split_words(s)
        .into_iter()
        .filter(|w| w.chars().count() > 1 && !w.chars().all(|c| c.is_ascii_digit()))
        .filter(|w| !is_stopword(w))
        .map(|w| stem(&w))
        .collect()
}

/// A stemmed term as the question wrote it (`handl` → `handled`), for text people read;
/// the term itself when no word of the question stems to it (a synonym).
pub fn as_written(term: &str, question: &str) -> String {
    split_words(question)
        .into_iter()
        .find(|w| stem(w) == term)
        .unwrap_or_else(|| term.to_string())
}

/// The content terms of a question, in order, without duplicates.
pub fn query_terms(q: &str) -> Vec<String> {
    query_terms_weighted(q)
        .into_iter()
        .map(|(t, _)| t)
        .collect()
}

/// How much a question word counts: the action words of a question ("how are webhooks
/// *handled*", "where is it *configured*") name what is done to the topic and match far
/// more code than the topic does, so past participles count [`ACTION_WEIGHT`].
pub const ACTION_WEIGHT: f64 = 0.4;

/// Irregular past participles, action words like "handled": "how are proxies *chosen*",
/// "where are secrets *hidden*". Without them such a word counts in full, and since code
/// rarely spells it, the question would be judged to name something the repository lacks.
const IRREGULAR_PARTICIPLES: &[&str] = &[
    "built",
    "bound",
    "brought",
    "caught",
    "chosen",
    "done",
    "drawn",
    "driven",
    "fed",
    "found",
    "given",
    "gone",
    "got",
    "gotten",
    "held",
    "hidden",
    "kept",
    "known",
    "laid",
    "led",
    "left",
    "lost",
    "made",
    "meant",
    "met",
    "paid",
    "put",
    "read",
    "run",
    "said",
    "seen",
    "sent",
    "set",
    "shown",
    "shut",
    "spent",
    "split",
    "spun",
    "taken",
    "thrown",
    "told",
    "torn",
    "understood",
    "woken",
    "won",
    "written",
    "wound",
];

/// The content terms of a question with their weights (see [`ACTION_WEIGHT`]).
pub fn query_terms_weighted(q: &str) -> Vec<(String, f64)> {
    let mut out: Vec<(String, f64)> = Vec::new();
    let words = split_words(q);
    for (i, word) in words.iter().enumerate() {
        if word.chars().count() <= 1 || word.chars().all(|c| c.is_ascii_digit()) {
            continue;
        }
        if is_stopword(word) {
            continue;
        }
        // A participle before a noun describes it ("the sandboxed environment", "nested
        // loops"): that is the topic, not the action ("how are webhooks handled").
        let adjective = words.get(i + 1).is_some_and(|next| {
            next.len() > 2 && !is_stopword(next) && next.chars().all(char::is_alphabetic)
        });
        let participle = (word.ends_with("ed") && word.len() > 4)
            || IRREGULAR_PARTICIPLES.contains(&word.as_str());
        let w = if participle && !adjective {
            ACTION_WEIGHT
        } else {
            1.0
        };
        let word = word.clone();
        let t = stem(&word);
        match out.iter_mut().find(|(x, _)| *x == t) {
            Some(e) => e.1 = e.1.max(w),
            None => out.push((t, w)),
        }
    }
    out
}

/// Related stems code uses for the same idea, each with how much a match on it counts
/// relative to the word itself.
pub fn synonyms(term: &str) -> &'static [(&'static str, f64)] {
    match term {
        "retri" => &[("backoff", 0.8), ("attempt", 0.4), ("jitter", 0.4)],
        "backoff" => &[("retri", 0.8)],
        "webhook" => &[("hook", 0.5), ("deliveri", 0.3)],
        "auth" | "authent" | "authenticat" => &[
            ("auth", 0.8),
            ("authent", 0.8),
            ("authenticat", 0.8),
            ("token", 0.5),
            ("login", 0.6),
            ("credential", 0.5),
        ],
        "config" | "configur" | "configurat" => &[
            ("config", 0.8),
            ("configur", 0.8),
            ("configurat", 0.8),
            ("setting", 0.6),
            ("env", 0.4),
        ],
        "setting" => &[("config", 0.6), ("env", 0.4)],
        // "environment variable" is spelt `env`, `envvar`, `env_var`, `getenv` in code.
        "environ" | "environment" => &[
            ("environ", 0.8),
            ("environment", 0.8),
            ("env", 0.8),
            ("envvar", 0.8),
            ("getenv", 0.6),
        ],
        "error" => &[("err", 0.7), ("exception", 0.6), ("fail", 0.4)],
        "fail" | "failur" => &[("fail", 0.8), ("failur", 0.8), ("error", 0.4)],
        "databas" | "db" => &[("databas", 0.8), ("db", 0.8), ("sql", 0.6), ("postgr", 0.5)],
        "verifi" | "verificat" | "verif" => &[
            ("verifi", 0.8),
            ("verif", 0.8),
            ("verificat", 0.8),
            ("check", 0.3),
        ],
        "signatur" | "sign" => &[("signatur", 0.8), ("sign", 0.6), ("hmac", 0.5)],
        "valid" | "validat" => &[("valid", 0.8), ("validat", 0.8), ("check", 0.3)],
        "rout" => &[("router", 0.8), ("handler", 0.3)],
        "test" => &[("fake", 0.3), ("mock", 0.3)],
        "entri" => &[("main", 0.5), ("cmd", 0.5), ("cli", 0.4)],
        "start" | "startup" => &[("main", 0.4), ("init", 0.4), ("run", 0.3)],
        "plan" => &[("planner", 0.8)],
        "store" | "storag" | "persist" => &[
            ("store", 0.8),
            ("storag", 0.8),
            ("repositori", 0.6),
            ("save", 0.3),
        ],
        "cach" => &[("readthrough", 0.6)],
        // A lexer is a scanner or a tokenizer in many code bases (hcl's `scanner`,
        // Python's `tokenize`); "scan" is not mapped back, as it means much else.
        "lexer" | "lex" => &[
            ("lexer", 0.8),
            ("lex", 0.8),
            ("scan", 0.7),
            ("tokeniz", 0.7),
            ("tokenis", 0.7),
        ],
        "tokeniz" | "tokenis" => &[
            ("tokeniz", 0.8),
            ("tokenis", 0.8),
            ("lexer", 0.7),
            ("lex", 0.7),
        ],
        "log" | "logg" => &[("log", 0.8), ("logg", 0.8)],
        "export" => &[("exporter", 0.8)],
        "regist" => &[("registri", 0.8), ("register", 0.8)],
        "registri" => &[("regist", 0.8), ("register", 0.8)],
        "idempot" | "idempotenci" | "idempotent" => &[
            ("idempot", 0.8),
            ("idempotenci", 0.8),
            ("idempotent", 0.8),
            ("duplicat", 0.5),
        ],
        _ => &[],
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_stop_word_misspelt_by_one_letter() {
        use super::{near_stopword, stopword_meant};
        assert_eq!(stopword_meant("wher").as_deref(), Some("where"));
        assert_eq!(stopword_meant("waht").as_deref(), Some("what"));
        assert!(near_stopword("whre"));
        // A real word, or a stop word itself, is not a typo of one.
        assert!(!near_stopword("retry"));
        assert!(!near_stopword("where"));
        assert!(!near_stopword("redis"));
    }

    use super::*;

    #[test]
    fn terms_read_as_the_question_wrote_them() {
        assert_eq!(
            as_written(&stem("handled"), "how are webhooks handled"),
            "handled"
        );
        assert_eq!(as_written("configur", "where is the setup"), "configur");
    }

    #[test]
    fn splits_identifiers_and_paths() {
        assert_eq!(split_words("HandleWebhook"), ["handle", "webhook"]);
        assert_eq!(split_words("HTTPClient"), ["http", "client"]);
        assert_eq!(split_words("post_transaction"), ["post", "transaction"]);
        assert_eq!(split_words("ledger_pb2"), ["ledger", "pb", "2"]);
        assert_eq!(
            split_words("internal/webhook/handler.go"),
            ["internal", "webhook", "handler", "go"]
        );
        assert_eq!(split_words("issueStore"), ["issue", "store"]);
        assert_eq!(split_words("MAX_DELAY"), ["max", "delay"]);
    }

    #[test]
    fn stems_forms_of_one_word_together() {
        for w in ["handle", "handled", "handler", "handlers", "handling"] {
            assert_eq!(stem(w), "handl", "{w}");
        }
        for w in ["retry", "retries", "retrying", "retried"] {
            assert_eq!(stem(w), "retri", "{w}");
        }
        for w in ["webhook", "webhooks"] {
            assert_eq!(stem(w), "webhook", "{w}");
        }
        assert_eq!(stem("verified"), stem("verify"));
        assert_eq!(stem("planner"), "plan");
        assert_eq!(stem("plans"), "plan");
        assert_eq!(stem("signature"), "signatur");
        assert_eq!(stem("authentication"), "authenticat");
        assert_eq!(stem("authenticate"), "authenticat");
        assert_eq!(stem("class"), "class");
        assert_eq!(stem("status"), "status");
        assert_eq!(stem("call"), "call");
        assert_eq!(stem("calls"), "call");
        assert_eq!(stem("user"), "user");
        assert_eq!(stem("pb2"), "pb2");
    }

    #[test]
    fn index_terms_drop_noise() {
        assert_eq!(
            index_terms("// VerifySignature checks the X-Relay-Signature-256 header"),
            ["verifi", "signatur", "check", "relay", "signatur", "header"]
        );
    }

    #[test]
    fn environment_matches_env_spellings() {
        let t = stem("environment");
        let syn: Vec<&str> = synonyms(&t).iter().map(|(w, _)| *w).collect();
        assert!(
            syn.contains(&"envvar") && syn.contains(&"env"),
            "{t}: {syn:?}"
        );
    }

    #[test]
    fn irregular_participles_weigh_less() {
        assert_eq!(
            query_terms_weighted("how are proxies chosen"),
            [(stem("proxies"), 1.0), (stem("chosen"), ACTION_WEIGHT)]
        );
    }

    #[test]
    fn action_words_weigh_less() {
        assert_eq!(
            query_terms_weighted("how are webhooks handled"),
            [
                ("webhook".to_string(), 1.0),
                ("handl".to_string(), ACTION_WEIGHT)
            ]
        );
        assert_eq!(
            query_terms_weighted("handled by the handler"),
            [("handl".to_string(), 1.0)]
        );
    }

    #[test]
    fn query_terms_are_unique() {
        assert_eq!(query_terms("webhook webhooks Webhook"), ["webhook"]);
        assert_eq!(query_terms("how does the code work"), Vec::<String>::new());
    }

    #[test]
    fn synonyms_are_symmetric_for_retry() {
        assert!(synonyms("retri").iter().any(|(s, _)| *s == "backoff"));
        assert!(synonyms("backoff").iter().any(|(s, _)| *s == "retri"));
        assert!(synonyms("nothing").is_empty());
    }
}
