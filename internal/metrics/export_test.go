package metrics

// Doc describes one metric family the server exports.
type Doc = doc

// Describe returns the metric families the server exports (besides go_* and
// process_*), in a fixed order: name, type, labels and help. The tests check
// the scrape and the docs (docs/deploy.md) against it.
func Describe() []Doc {
	out := make([]Doc, len(docs))
	for i, d := range docs {
		d.Labels = append([]string(nil), d.Labels...)
		out[i] = d
	}
	return out
}

// RefusalCodes returns the refusal codes counted by name; others count as
// "other".
func RefusalCodes() []string { return append([]string(nil), refusalCodes...) }
