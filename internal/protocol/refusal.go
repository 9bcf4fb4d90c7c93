package protocol

import "encoding/json"

// Refusals. A refused WebSocket message is answered with an Error frame,
// a refused lobby API request with an APIError body; Refusal and
// APIRefusal build them, and nothing else does.

// Refusal returns the error message refusing a client's message: its
// code (a Code constant), the reason in one line, and the refused
// message's id ("" if it had none). A refused move also names the move
// (Error.Move).
func Refusal(code, message, id string) Error {
	return Error{V: Version, Type: TypeError, Code: code, Message: message, ID: id}
}

// JSON returns e as it is sent: one frame of JSON text.
func (e Error) JSON() []byte {
	b, _ := json.Marshal(e) // strings only: it cannot fail
	return b
}

// APIError is the body of every refused lobby API request.
type APIError struct {
	Error APIErrorBody `json:"error"`
}

// APIErrorBody is what an APIError says of a refusal: its code (such as
// "seat_taken", or a Code constant where the socket has the same) and
// the reason in one line.
type APIErrorBody struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// APIRefusal returns the body refusing a lobby API request, with its
// code and reason.
func APIRefusal(code, message string) []byte {
	b, _ := json.Marshal(APIError{Error: APIErrorBody{Code: code, Message: message}}) // strings only
	return b
}
