package main

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
)

// checkExpect compares a report (the JSON printed by parlour script) and its
// exit status with an expectation in the format of shared/spec/examples: the
// fields listed must match, "exit" is the exit status, and "error":
// "refused" stands for any non-null error. Fields not listed are not checked.
func checkExpect(expect []byte, exit int, report []byte) error {
	var want map[string]any
	if err := json.Unmarshal(expect, &want); err != nil {
		return fmt.Errorf("expectation is not a JSON object: %v", err)
	}
	if w, ok := want["exit"]; ok {
		if n, _ := w.(float64); int(n) != exit {
			return fmt.Errorf("exit status %d, want %v", exit, w)
		}
		delete(want, "exit")
	}
	if len(want) == 0 {
		return nil
	}
	var got map[string]any
	if err := json.Unmarshal(report, &got); err != nil {
		return fmt.Errorf("report is not a JSON object: %v\n%s", err, report)
	}
	keys := make([]string, 0, len(want))
	for k := range want {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		w, g := want[k], got[k]
		if k == "error" && w == "refused" {
			if g == nil {
				return fmt.Errorf("error is null, want a refusal")
			}
			continue
		}
		if !reflect.DeepEqual(w, g) {
			wj, _ := json.Marshal(w)
			gj, _ := json.Marshal(g)
			return fmt.Errorf("%s is %s, want %s", k, gj, wj)
		}
	}
	return nil
}
