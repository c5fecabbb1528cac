// Package render turns a synthesized site (the graph, the model, the drift
// report, the findings and the page models) into its pages and artifacts:
// values in, bytes out. [New] makes a [Renderer] from an [Input]; its
// [Renderer.Site] renders every file into a sink, keeping the pages a
// [PageStore] holds under an unchanged key, and [Renderer.RenderPage]
// renders one page on demand. It reads no disk: the caller reads the
// workspace, the git history and the caches, and hands their values in.
package render
