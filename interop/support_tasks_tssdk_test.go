package interop

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestTypeScriptSDKTasks: the TypeScript SDK v1 client's task API
// (experimental, 2025-11-25) against examples/support's build_report
// (execution.taskSupport optional): callToolStream asks for a task and
// follows it to the report; tasks/get says completed; tasks/result returns
// the report again; tasks/list names the task; cancelling the finished
// task is -32602, as is an unknown id; without a task the same tool is a
// plain call.
func TestTypeScriptSDKTasks(t *testing.T) {
	for _, transport := range []string{"stdio", "http"} {
		t.Run(transport, func(t *testing.T) {
			needNode(t)
			target := exampleBin(t, "support") // a second per ticket: the report on acme takes two
			if transport == "http" {
				target = startHTTP(t, "support", "-report-step", "100ms")
			}
			s := runTSScript(t, "sdk-tasks.mjs", transport, target)
			var stream []struct {
				Type   string
				Task   struct{ TaskID, Status string }
				Result struct {
					StructuredContent map[string]any
				}
				Error string
			}
			if s.result(t, "callToolStream", &stream) {
				var types []string
				for _, m := range stream {
					types = append(types, m.Type)
				}
				if len(stream) == 0 {
					t.Error("callToolStream: no messages, want taskCreated first and the result last")
				} else if last := stream[len(stream)-1]; types[0] != "taskCreated" || last.Type != "result" || last.Result.StructuredContent["tickets"] != 2.0 {
					t.Errorf("callToolStream messages %q, last %+v", types, last)
				}
			}
			var task struct{ TaskID, Status string }
			if s.result(t, "getTask", &task) && task.Status != "completed" {
				t.Errorf("tasks/get = %+v, want completed", task)
			}
			var res struct {
				StructuredContent map[string]any
				Meta              map[string]json.RawMessage `json:"_meta"`
			}
			if s.result(t, "getTaskResult", &res) && (res.StructuredContent["customer"] != "acme" || !strings.Contains(string(res.Meta["io.modelcontextprotocol/related-task"]), task.TaskID)) {
				t.Errorf("tasks/result = %+v", res)
			}
			var list struct{ Tasks []struct{ TaskID string } }
			if s.result(t, "listTasks", &list) && (len(list.Tasks) != 1 || list.Tasks[0].TaskID != task.TaskID) {
				t.Errorf("tasks/list = %+v, want the one task", list)
			}
			s.rpcErr(t, "cancelFinishedTask", -32602, "")
			s.rpcErr(t, "getUnknownTask", -32602, "")
			var plain struct {
				StructuredContent map[string]any
				Task              any
			}
			if s.result(t, "callPlain", &plain) && (plain.StructuredContent["customer"] != "globex" || plain.Task != nil) {
				t.Errorf("plain call = %+v, want the report itself", plain)
			}
		})
	}
}
