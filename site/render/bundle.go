package render

import "github.com/tracewiki/tracewiki/synth"

// writeBundle writes api/bundle.json, the repository's bundle (SPEC 1.8),
// when the site has one (every write path goes through
// [Renderer.addStatic]). The bundle is made by the site's caller
// ([Input.Bundle]): it needs the code's hashes, which rendering does not.
func (b *Renderer) writeBundle(put func(name string, data []byte) error) error {
	if b.bundle == nil {
		return nil
	}
	data, err := b.bundle()
	if err != nil {
		return err
	}
	return put(synth.BundleFile, data)
}
