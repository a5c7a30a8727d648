package upstream

import (
	"context"
	"testing"
)

type awsTag struct {
	Key   string  `json:"Key"`
	Value *string `json:"Value,omitempty"`
}

type tagSpec struct {
	ResourceType string   `json:"ResourceType"`
	Tags         []awsTag `json:"Tags"`
}

// TestAWSQueryQueryString: a GET of AWS's query protocol, byte for byte as
// the SDKs send it: a list's items numbered from 1 under member (or the
// item name the description gives), a structure's properties under its
// name, a map's entries as entry.N.key and entry.N.value, a flattened
// list without the member level, a nested property renamed.
func TestAWSQueryQueryString(t *testing.T) {
	srv, got := recorder(t, 200, `{}`)
	c := newClient(t, Config{BaseURL: srv.URL})
	prod := "prod"
	r := NewRequest("GET", "/")
	r.AWSQuery(AWSQuery{
		Members:   map[string]string{"Tags": "Tag"},
		Names:     map[string]string{"TagSpecification.Tags": "Tag"},
		Flattened: []string{"TagSpecification", "TagSpecification.Tags"},
		Maps:      []string{"Attributes"},
	})
	r.Query("Action", "AddTagsToResource")
	r.Query("Version", "2014-10-31")
	r.Query("ResourceName", "arn:aws:rds:us-east-1:1:db:a b")
	r.Query("Tags", []awsTag{{"env", &prod}, {Key: "team"}})
	r.Query("Ids", []string{"i-1", "i-2"})
	r.Query("Empty", []string{})
	r.Query("Attributes", map[string]string{"b": "2", "a": "1"})
	r.Query("TagSpecification", []tagSpec{{"instance", []awsTag{{"k", &prod}}}})
	r.Query("DryRun", true)
	if err := c.Call(context.Background(), r, nil); err != nil {
		t.Fatal(err)
	}
	want := "Action=AddTagsToResource&Version=2014-10-31&ResourceName=arn%3Aaws%3Ards%3Aus-east-1%3A1%3Adb%3Aa%20b" +
		"&Tags.Tag.1.Key=env&Tags.Tag.1.Value=prod&Tags.Tag.2.Key=team" +
		"&Ids.member.1=i-1&Ids.member.2=i-2" +
		"&Attributes.entry.1.key=a&Attributes.entry.1.value=1&Attributes.entry.2.key=b&Attributes.entry.2.value=2" +
		"&TagSpecification.1.ResourceType=instance&TagSpecification.1.Tag.1.Key=k&TagSpecification.1.Tag.1.Value=prod" +
		"&DryRun=true"
	if got.rawQuery != want {
		t.Errorf("query\n %s\nwant\n %s", got.rawQuery, want)
	}
}

// TestAWSQueryFormBody: a POST of AWS's query protocol: the body's fields
// form-encoded in the order set, named as the query string names them, a
// flattened map without the entry level.
func TestAWSQueryFormBody(t *testing.T) {
	srv, got := recorder(t, 200, `{}`)
	c := newClient(t, Config{BaseURL: srv.URL})
	r := NewRequest("POST", "/")
	r.Form()
	r.AWSQuery(AWSQuery{
		Members:   map[string]string{"SendMessageBatchRequestEntry.Labels": "Label"},
		Flattened: []string{"SendMessageBatchRequestEntry", "Attribute"},
		Maps:      []string{"Attribute"},
	})
	r.Query("Action", "SendMessageBatch")
	type entry struct {
		ID     string   `json:"Id"`
		Body   string   `json:"MessageBody"`
		Labels []string `json:"Labels,omitempty"`
	}
	r.BodyField("QueueUrl", "https://sqs.example/1/q")
	r.BodyField("SendMessageBatchRequestEntry", []entry{{"a", "hi & bye", []string{"x"}}, {ID: "b", Body: "2"}})
	r.BodyField("Attribute", map[string]int{"DelaySeconds": 5})
	var none *string
	r.BodyField("Absent", none)
	if err := c.Call(context.Background(), r, nil); err != nil {
		t.Fatal(err)
	}
	want := "QueueUrl=https%3A%2F%2Fsqs.example%2F1%2Fq" +
		"&SendMessageBatchRequestEntry.1.Id=a&SendMessageBatchRequestEntry.1.MessageBody=hi+%26+bye&SendMessageBatchRequestEntry.1.Labels.Label.1=x" +
		"&SendMessageBatchRequestEntry.2.Id=b&SendMessageBatchRequestEntry.2.MessageBody=2" +
		"&Attribute.1.key=DelaySeconds&Attribute.1.value=5"
	if got.body != want || got.rawQuery != "Action=SendMessageBatch" || got.header.Get("Content-Type") != "application/x-www-form-urlencoded" {
		t.Errorf("body\n %s\nwant\n %s\nquery %s, Content-Type %s", got.body, want, got.rawQuery, got.header.Get("Content-Type"))
	}
}
