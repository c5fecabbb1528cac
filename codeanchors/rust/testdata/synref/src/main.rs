//! synref prints, for each Rust file named on stdin (one per line), the
//! symbols tracewiki's SPEC 1.3 names in it, as the syn parser sees them:
//! one JSON object per line, {"file", "symbols": ["name kind start-end"],
//! "ambiguous": [names], "error"}. It is the reference of
//! codeanchors/rust's conformance test, and applies the naming rules of
//! SPEC 1.3 to syn's syntax tree independently of the Go scanner.

use proc_macro2::TokenTree;
use quote::ToTokens;
use std::collections::BTreeMap;
use std::io::{self, BufRead, Write};

struct Walker<'a> {
    lines: Vec<&'a str>,
    syms: Vec<(String, &'static str, usize, usize)>,
}

const TEST_ATTRS: &[&str] = &["test", "bench", "rstest", "test_case", "quickcheck"];

fn is_test_attr(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path
            .segments
            .last()
            .map_or(false, |s| TEST_ATTRS.contains(&s.ident.to_string().as_str()))
    })
}

fn is_cfg_test(attrs: &[syn::Attribute]) -> bool {
    attrs
        .iter()
        .any(|a| a.path.is_ident("cfg") && a.tokens.to_string().replace(' ', "") == "(test)")
}

fn ident(i: &syn::Ident) -> String {
    let s = i.to_string();
    s.strip_prefix("r#").map(str::to_string).unwrap_or(s)
}

/// type_name is the last segment of a path type, after references,
/// pointers and dyn; "" for any other type.
fn type_name(t: &syn::Type) -> String {
    match t {
        syn::Type::Reference(r) => type_name(&r.elem),
        syn::Type::Ptr(p) => type_name(&p.elem),
        syn::Type::Group(g) => type_name(&g.elem),
        syn::Type::Path(p) if p.qself.is_none() => {
            p.path.segments.last().map(|s| ident(&s.ident)).unwrap_or_default()
        }
        syn::Type::TraitObject(o) => o
            .bounds
            .iter()
            .find_map(|b| match b {
                syn::TypeParamBound::Trait(t) => t.path.segments.last().map(|s| ident(&s.ident)),
                _ => None,
            })
            .unwrap_or_default(),
        _ => String::new(),
    }
}

impl<'a> Walker<'a> {
    /// range returns the first and last lines of a node's tokens, leading
    /// doc comments (/// and /** */, which syn turns into #[doc]) skipped.
    fn range(&self, tokens: proc_macro2::TokenStream) -> (usize, usize) {
        let trees: Vec<TokenTree> = tokens.into_iter().collect();
        let mut i = 0;
        while i + 1 < trees.len() {
            let is_hash = matches!(&trees[i], TokenTree::Punct(p) if p.as_char() == '#');
            if !is_hash || !self.starts_comment(&trees[i]) {
                break;
            }
            i += 2;
        }
        let start = trees[i].span().start().line;
        let end = trees[trees.len() - 1].span().end().line;
        (start, end)
    }

    fn starts_comment(&self, t: &TokenTree) -> bool {
        let lc = t.span().start();
        let line = match self.lines.get(lc.line - 1) {
            Some(l) => l,
            None => return false,
        };
        let rest: String = line.chars().skip(lc.column).collect();
        rest.starts_with("//") || rest.starts_with("/*")
    }

    fn add(&mut self, name: String, kind: &'static str, r: (usize, usize), test: bool) {
        let kind = if test { "test" } else { kind };
        self.syms.push((name, kind, r.0, r.1));
    }

    fn items(&mut self, items: &[syn::Item], prefix: &str, test: bool) {
        for it in items {
            let r = self.range(it.to_token_stream());
            match it {
                syn::Item::Fn(f) => self.add(
                    format!("{}{}", prefix, ident(&f.sig.ident)),
                    "func",
                    r,
                    test || is_test_attr(&f.attrs),
                ),
                syn::Item::Struct(s) => self.add(format!("{}{}", prefix, ident(&s.ident)), "type", r, test || is_test_attr(&s.attrs)),
                syn::Item::Enum(s) => self.add(format!("{}{}", prefix, ident(&s.ident)), "type", r, test || is_test_attr(&s.attrs)),
                syn::Item::Union(s) => self.add(format!("{}{}", prefix, ident(&s.ident)), "type", r, test || is_test_attr(&s.attrs)),
                syn::Item::Type(s) => self.add(format!("{}{}", prefix, ident(&s.ident)), "type", r, test || is_test_attr(&s.attrs)),
                syn::Item::TraitAlias(s) => self.add(format!("{}{}", prefix, ident(&s.ident)), "type", r, test || is_test_attr(&s.attrs)),
                syn::Item::Trait(t) => {
                    let name = format!("{}{}", prefix, ident(&t.ident));
                    self.add(name.clone(), "type", r, test || is_test_attr(&t.attrs));
                    for ti in &t.items {
                        if let syn::TraitItem::Method(m) = ti {
                            let r = self.range(m.to_token_stream());
                            self.add(format!("{}.{}", name, ident(&m.sig.ident)), "method", r, test || is_test_attr(&m.attrs));
                        }
                    }
                }
                syn::Item::Verbatim(ts) => {
                    // syn 1 keeps unstable `impl const Trait for T` as
                    // tokens: without the const, it is an ordinary impl
                    // (the tokens keep their spans).
                    let mut trees: Vec<TokenTree> = ts.clone().into_iter().collect();
                    let mut at = None;
                    let mut angle = 0;
                    let mut seen_impl = false;
                    for (i, t) in trees.iter().enumerate() {
                        match t {
                            TokenTree::Ident(id) if id == "impl" => seen_impl = true,
                            TokenTree::Punct(p) if seen_impl && p.as_char() == '<' => angle += 1,
                            TokenTree::Punct(p) if seen_impl && p.as_char() == '>' => angle -= 1,
                            TokenTree::Ident(id) if seen_impl && angle == 0 && id == "const" => {
                                at = Some(i);
                                break;
                            }
                            _ => {}
                        }
                    }
                    if let Some(at) = at {
                        trees.remove(at);
                        let stream: proc_macro2::TokenStream = trees.into_iter().collect();
                        if let Ok(im) = syn::parse2::<syn::ItemImpl>(stream) {
                            self.items(&[syn::Item::Impl(im)], prefix, test);
                        }
                    }
                }
                syn::Item::Impl(im) => {
                    let mut name = type_name(&im.self_ty);
                    for g in &im.generics.params {
                        let p = match g {
                            syn::GenericParam::Type(t) => ident(&t.ident),
                            syn::GenericParam::Const(c) => ident(&c.ident),
                            _ => continue,
                        };
                        if p == name {
                            name = String::new();
                        }
                    }
                    if name.is_empty() {
                        continue;
                    }
                    for ii in &im.items {
                        if let syn::ImplItem::Method(m) = ii {
                            let r = self.range(m.to_token_stream());
                            self.add(
                                format!("{}{}.{}", prefix, name, ident(&m.sig.ident)),
                                "method",
                                r,
                                test || is_test_attr(&m.attrs),
                            );
                        }
                    }
                }
                syn::Item::Mod(m) => {
                    if let Some((_, content)) = &m.content {
                        let p = format!("{}{}.", prefix, ident(&m.ident));
                        self.items(content, &p, test || is_cfg_test(&m.attrs));
                    }
                }
                syn::Item::Macro(m) => {
                    if let Some(id) = &m.ident {
                        if m.mac.path.is_ident("macro_rules") {
                            self.add(format!("{}{}", prefix, ident(id)), "func", r, test || is_test_attr(&m.attrs));
                        }
                    }
                }
                syn::Item::ForeignMod(fm) => {
                    for fi in &fm.items {
                        match fi {
                            syn::ForeignItem::Fn(f) => {
                                let r = self.range(f.to_token_stream());
                                self.add(format!("{}{}", prefix, ident(&f.sig.ident)), "func", r, test || is_test_attr(&f.attrs));
                            }
                            syn::ForeignItem::Type(f) => {
                                let r = self.range(f.to_token_stream());
                                self.add(format!("{}{}", prefix, ident(&f.ident)), "type", r, test || is_test_attr(&f.attrs));
                            }
                            _ => {}
                        }
                    }
                }
                _ => {}
            }
        }
    }
}

fn quote_json(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn main() {
    let stdin = io::stdin();
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    for line in stdin.lock().lines() {
        let file = line.expect("read stdin");
        if file.is_empty() {
            continue;
        }
        // "PATH\tREL": REL, the path inside its project, makes every
        // symbol of a file below a tests/ folder a test.
        let (path, test) = match file.split_once('\t') {
            Some((p, rel)) => (p.to_string(), rel.starts_with("tests/") || rel.contains("/tests/")),
            None => (file.clone(), false),
        };
        let src = std::fs::read_to_string(&path).unwrap_or_default();
        let mut res = format!("{{\"file\":{}", quote_json(&file));
        match syn::parse_file(&src) {
            Err(e) => {
                let lc = e.span().start();
                res.push_str(&format!(",\"error\":{}", quote_json(&format!("{}:{}: {}", lc.line, lc.column + 1, e))));
            }
            Ok(f) => {
                let mut w = Walker { lines: src.lines().collect(), syms: Vec::new() };
                w.items(&f.items, "", test);
                let mut count: BTreeMap<&str, usize> = BTreeMap::new();
                for s in &w.syms {
                    *count.entry(s.0.as_str()).or_default() += 1;
                }
                let syms: Vec<String> = w
                    .syms
                    .iter()
                    .filter(|s| count[s.0.as_str()] == 1)
                    .map(|s| quote_json(&format!("{} {} {}-{}", s.0, s.1, s.2, s.3)))
                    .collect();
                let amb: Vec<String> = count.iter().filter(|(_, &n)| n > 1).map(|(k, _)| quote_json(k)).collect();
                res.push_str(&format!(",\"symbols\":[{}],\"ambiguous\":[{}]", syms.join(","), amb.join(",")));
            }
        }
        res.push('}');
        writeln!(out, "{}", res).expect("write");
    }
}
