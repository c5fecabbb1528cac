package rust

import (
	"slices"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
	"github.com/tracewiki/tracewiki/codeanchors/lang"
)

// linkWorkspace is a Cargo workspace: a library with modules in files and
// inline, a binary, an integration test, a path dependency and a registry
// dependency.
const linkWorkspace = `
-- Cargo.toml --
[package]
name = "my-shop"
version = "0.1.0"

[dependencies]
serde = "1"
pricing = { path = "crates/pricing" }
money-fmt = { package = "money_format", version = "2" }
outside = { path = "../outside" }
-- crates/pricing/Cargo.toml --
[package]
name = "pricing"

[lib]
path = "lib/pricing.rs"
-- crates/pricing/lib/pricing.rs --
pub fn price(x: u32) -> u32 { x }
-- src/lib.rs --
pub mod cart;
mod net;
mod missing;
mod inline {
    mod deep;
}
use std::collections::HashMap;
use serde::Serialize;
use money_fmt::format;
use crate::cart::{Cart, total};
use pricing::price;
use outside::thing;
use nowhere::x;

pub fn run() -> u32 {
    let c = Cart::new();
    total(&c) + price(1) + helper() + net::ping()
}

fn helper() -> u32 { 0 }
-- src/cart/mod.rs --
mod item;
use super::net;
use self::item::Item;
pub struct Cart;
impl Cart {
    pub fn new() -> Self { Cart }
    pub fn add(&mut self) { self.check(); Self::check_all(); }
    fn check(&self) {}
    fn check_all() {}
}
pub fn total(c: &Cart) -> u32 { Item::cost() }
-- src/cart/item.rs --
use super::super::net::ping;
use crate::cart::Cart;
pub struct Item;
impl Item { pub fn cost() -> u32 { ping() } }
-- src/net.rs --
pub fn ping() -> u32 { 1 }
-- src/inline/deep.rs --
pub fn deep() {}
-- src/bin/tool.rs --
mod util;
use my_shop::run;
fn main() { run(); util::go(); }
-- src/bin/util.rs --
pub fn go() {}
-- tests/api.rs --
use my_shop::cart::Cart;
#[test]
fn adds() { Cart::new(); }
`

func linkFiles(t *testing.T) ([]*lang.File, map[string][]byte) {
	t.Helper()
	var files []*lang.File
	project := map[string][]byte{}
	for _, f := range txtar.Parse([]byte(linkWorkspace)).Files {
		if strings.HasSuffix(f.Name, "Cargo.toml") {
			project[f.Name] = f.Data
			continue
		}
		x, err := Extract(f.Name, f.Data)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, x)
	}
	return files, project
}

func TestLinkImports(t *testing.T) {
	files, project := linkFiles(t)
	l := newLinker(files, project)
	want := map[string][2][]string{
		"src/lib.rs": {
			{"crates/pricing/lib/pricing.rs", "src/cart/mod.rs", "src/inline/deep.rs", "src/net.rs"},
			{"mod missing (no file for module missing)", "nowhere::x (no module, workspace crate or dependency named nowhere)"},
		},
		"src/cart/mod.rs":  {{"src/cart/item.rs", "src/net.rs"}, nil},
		"src/cart/item.rs": {{"src/cart/mod.rs", "src/net.rs"}, nil},
		"src/bin/tool.rs":  {{"src/bin/util.rs", "src/lib.rs"}, nil},
		"tests/api.rs":     {{"src/cart/mod.rs"}, nil},
	}
	for _, f := range files {
		w, ok := want[f.Path]
		if !ok {
			continue
		}
		got, unresolved := l.imports(f)
		if !slices.Equal(got, w[0]) || !slices.Equal(unresolved, w[1]) {
			t.Errorf("imports(%s) = %q, %q\nwant %q, %q", f.Path, got, unresolved, w[0], w[1])
		}
	}
}

func TestLinkCalls(t *testing.T) {
	files, project := linkFiles(t)
	l := newLinker(files, project)
	got := map[string]string{}
	for _, f := range files {
		for _, c := range f.Calls {
			if r, ok := l.resolveCall(f, c); ok {
				got[f.Path+"@"+c.From+" "+c.Qual+"::"+c.Name] = r.Path + "@" + r.Symbol
			}
		}
	}
	want := map[string]string{
		"src/lib.rs@run ::total":                   "src/cart/mod.rs@total",
		"src/lib.rs@run Cart::new":                 "src/cart/mod.rs@Cart.new",
		"src/lib.rs@run ::price":                   "crates/pricing/lib/pricing.rs@price",
		"src/lib.rs@run ::helper":                  "src/lib.rs@helper",
		"src/lib.rs@run net::ping":                 "src/net.rs@ping",
		"src/cart/mod.rs@Cart.add self::check":     "src/cart/mod.rs@Cart.check",
		"src/cart/mod.rs@Cart.add Self::check_all": "src/cart/mod.rs@Cart.check_all",
		"src/cart/mod.rs@total Item::cost":         "src/cart/item.rs@Item.cost",
		"src/cart/item.rs@Item.cost ::ping":        "src/net.rs@ping",
		"src/bin/tool.rs@main ::run":               "src/lib.rs@run",
		"src/bin/tool.rs@main util::go":            "src/bin/util.rs@go",
		"tests/api.rs@adds Cart::new":              "src/cart/mod.rs@Cart.new",
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("resolveCall %s = %q, want %q", k, got[k], v)
		}
	}
	for k, v := range got {
		if _, ok := want[k]; !ok {
			t.Errorf("resolveCall %s = %q, want no resolution", k, v)
		}
	}
}
