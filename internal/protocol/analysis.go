package protocol

import "encoding/json"

// AnalysisRequest is the body of POST /api/tables/{id}/analysis (every
// field may be left out): the seats to analyse (nil: every seat) and
// whether the search sees every card. The store keeps it, in canonical
// form, as the key of the analysis it asks for.
type AnalysisRequest struct {
	Seats     []int `json:"seats"`
	Hindsight bool  `json:"hindsight"`
}

// AnalysisStatus is how an analysis of a finished game stands, as POST
// and GET /api/tables/{id}/analysis answer: queued, running, done or
// failed; its progress from 0 to 1; the options it was asked with; the
// report (package analysis's, in shared/spec/analysis.md's format) once
// done; and why it failed, if it did.
type AnalysisStatus struct {
	Status    string          `json:"status"`
	Progress  float64         `json:"progress"`
	Seats     []int           `json:"seats"`
	Hindsight bool            `json:"hindsight"`
	Report    json.RawMessage `json:"report,omitempty"`
	Error     string          `json:"error,omitempty"`
}
