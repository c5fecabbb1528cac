// Package buildcache is tracewiki's incremental build: what one build
// leaves for the next, so that the next redoes only what its inputs
// changed. It holds:
//
//   - [Cache], the persistent, content-addressed store every record lives
//     in (entries MACed with the user's [Secret], trimmed by age and size);
//   - the output record and [Writer], the [render.PageStore] a build
//     writes through: it keeps the pages whose key did not change and the
//     files whose bytes did not, and puts the new site in place, as a
//     patch when few files changed ([UndoLeftPatch] takes back a killed
//     one);
//   - [NewOutline], what every page may show of the documents but their
//     bodies, the heart of the pages' shared key;
//   - the up-to-date record ([Cache.Record], [UpToDate]): what a build saw
//     of every path, so that the next finds an unchanged workspace
//     without reading it;
//   - the edit record ([NewEdits], [BuildEdited]): what each wiki page's
//     body and claims table show of the rest of the site, so that an edit
//     of pages' text updates their pages and the search index in place.
//
// Package site drives it (its Build chooses among up to date, edited
// and whole builds); it never imports site: what it needs of a build
// comes as values ([Built], [EditsSite]) and the renderer.
package buildcache
