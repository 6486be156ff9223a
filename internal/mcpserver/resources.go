package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/ctxpack/ctxpack/internal/app"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The resources' URIs.
const (
	uriIdentity  = "ctxpack://identity"
	uriArtifacts = "ctxpack://artifacts"
	uriArtifact  = "ctxpack://artifact/"
	uriPlan      = "ctxpack://plan/last"
)

// addResources adds the identity, the artifact index, each artifact
// (through a template, and listed one by one by listArtifacts) and the
// session's last plan.
func (s *Server) addResources() {
	s.mcp.AddResource(&mcp.Resource{URI: uriIdentity, Name: "identity", Title: "Project identity", MIMEType: "text/markdown",
		Description: "What the project is: its identity artifact, in full"}, resourceErrors(s.readIdentity))
	s.mcp.AddResource(&mcp.Resource{URI: uriArtifacts, Name: "artifacts", Title: "Artifact index", MIMEType: "application/json",
		Description: "Every artifact of the project (id, type, status, title, path), sorted by id"}, resourceErrors(s.readIndex))
	s.mcp.AddResource(&mcp.Resource{URI: uriPlan, Name: "last-plan", Title: "Last assembly plan", MIMEType: "application/json",
		Description: "The plan of this session's last context, pack or premortem: its parts, what was dropped and why, and its digest"}, resourceErrors(s.readPlan))
	s.mcp.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: uriArtifact + "{id}", Name: "artifact", Title: "Artifact", MIMEType: "text/markdown",
		Description: "One artifact in full, by id: ctxpack://artifact/SPEC-BILLING-001"}, resourceErrors(s.readArtifact))
	s.mcp.AddReceivingMiddleware(s.listArtifacts)
}

// listArtifacts adds each artifact to the last page of resources/list, as
// the project has them when the list is asked for.
func (s *Server) listArtifacts(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		lr, ok := res.(*mcp.ListResourcesResult)
		if method != "resources/list" || err != nil || !ok || lr.NextCursor != "" {
			return res, err
		}
		_, list, err := s.artifacts("")
		if err != nil {
			return nil, err
		}
		for _, a := range list {
			lr.Resources = append(lr.Resources, &mcp.Resource{
				URI: uriArtifact + url.PathEscape(a.ID), Name: a.ID, Title: a.Title, MIMEType: "text/markdown",
				Description: fmt.Sprintf("%s %s (%s): %s", a.Type, a.ID, orDash(a.Status), a.Path),
			})
		}
		return lr, nil
	}
}

// resourceErrors makes the errors of a resource handler JSON-RPC errors:
// internal errors unless the handler said otherwise.
func resourceErrors(h mcp.ResourceHandler) mcp.ResourceHandler {
	return func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		res, err := h(ctx, req)
		return res, rpcError(err, jsonrpc.CodeInternalError)
	}
}

// promptErrors makes the errors of a prompt handler JSON-RPC errors: an
// assembly a prompt's arguments ask for fails because of them.
func promptErrors(h mcp.PromptHandler) mcp.PromptHandler {
	return func(ctx context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		res, err := h(ctx, req)
		return res, rpcError(err, jsonrpc.CodeInvalidParams)
	}
}

func rpcError(err error, code int64) error {
	var je *jsonrpc.Error
	if err == nil || errors.As(err, &je) {
		return err
	}
	return &jsonrpc.Error{Code: code, Message: err.Error()}
}

// artifacts opens the project and lists its artifacts of type typ (all
// when empty).
func (s *Server) artifacts(typ string) (*app.Project, []app.ArtifactInfo, error) {
	p, err := s.open()
	if err != nil {
		return nil, nil, err
	}
	list, _, err := p.List(typ, "")
	if err != nil {
		return nil, nil, s.fail(err)
	}
	return p, list, nil
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func textResource(uri, mime, text string) *mcp.ReadResourceResult {
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: mime, Text: text}}}
}

func (s *Server) readIdentity(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	p, list, err := s.artifacts("identity")
	if err != nil {
		return nil, err
	}
	if len(list) == 0 {
		return nil, notFound(req.Params.URI, errors.New("ctxpack: the project has no identity artifact (.ctxpack/identity.md; ctxpack init writes one)"))
	}
	v, _, err := p.Show(list[0].ID, "full", "text")
	if err != nil {
		return nil, s.fail(err)
	}
	return textResource(req.Params.URI, "text/markdown", string(v.Output)), nil
}

func (s *Server) readIndex(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	_, list, err := s.artifacts("")
	if err != nil {
		return nil, err
	}
	return textResource(req.Params.URI, "application/json", jsonText(list)), nil
}

func (s *Server) readArtifact(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	id, err := url.PathUnescape(strings.TrimPrefix(req.Params.URI, uriArtifact))
	if err != nil || id == "" || strings.ContainsAny(id, "/?#") {
		return nil, notFound(req.Params.URI, fmt.Errorf("ctxpack: %s is not an artifact's uri: want ctxpack://artifact/ID, as resources/list gives them", req.Params.URI))
	}
	p, err := s.open()
	if err != nil {
		return nil, err
	}
	v, _, err := p.Show(id, "full", "text")
	if err != nil {
		return nil, notFound(req.Params.URI, s.fail(err))
	}
	return textResource(req.Params.URI, "text/markdown", string(v.Output)), nil
}

func (s *Server) readPlan(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	plan := s.lastPlan(req.Session)
	if plan == nil {
		return nil, notFound(req.Params.URI, errors.New("ctxpack: no context has been assembled in this session yet: call the context tool first"))
	}
	return textResource(req.Params.URI, "application/json", jsonText(plan)), nil
}

// addPrompts adds the three prompts.
func (s *Server) addPrompts() {
	budget := &mcp.PromptArgument{Name: "budget", Description: "tokens the context may use (default: the project's budget)"}
	s.mcp.AddPrompt(&mcp.Prompt{Name: "work_on_task", Title: "Work on task",
		Description: "Start work on a task with its assembled context: the task, and the specs, decisions and norms its links reach",
		Arguments:   []*mcp.PromptArgument{{Name: "task", Description: "the task id (TASK-042)", Required: true}, budget}}, promptErrors(s.workOnTask))
	s.mcp.AddPrompt(&mcp.Prompt{Name: "review_against_norms", Title: "Review against norms",
		Description: "Review code against the project's norms, each cited by id",
		Arguments:   []*mcp.PromptArgument{{Name: "paths", Description: "files or directories to review, relative to the project root, separated by commas (default: the whole project)"}, budget}}, promptErrors(s.reviewAgainstNorms))
	s.mcp.AddPrompt(&mcp.Prompt{Name: "explain_context", Title: "Explain this context",
		Description: "Explain what the context for a target holds and why: each part's reason, level and tokens, and what was left out",
		Arguments:   []*mcp.PromptArgument{{Name: "target", Description: "a task id, a path of the project or free text", Required: true}, budget}}, promptErrors(s.explainContext))
}

// promptBudget reads a prompt's budget argument.
func (s *Server) promptBudget(args map[string]string) (int, error) {
	b := strings.TrimSpace(args["budget"])
	if b == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(b)
	if err != nil || n < 0 || n > s.o.MaxBudget {
		return 0, invalid(fmt.Errorf("ctxpack: budget must be a number of tokens between 0 and %d (got %q)", s.o.MaxBudget, b))
	}
	return n, nil
}

func userPrompt(desc, text string) *mcp.GetPromptResult {
	return &mcp.GetPromptResult{Description: desc, Messages: []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: text}}}}
}

// promptContext assembles target for a prompt with its budget argument, as
// the context tool does.
func (s *Server) promptContext(ctx context.Context, req *mcp.GetPromptRequest, target string) (*app.Result, error) {
	budget, err := s.promptBudget(req.Params.Arguments)
	if err != nil {
		return nil, err
	}
	return s.assemble(ctx, req.Session, target, s.request(assembly{Budget: budget}))
}

func (s *Server) workOnTask(ctx context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	task := strings.TrimSpace(req.Params.Arguments["task"])
	if task == "" {
		return nil, invalid(errors.New("ctxpack: work_on_task needs a task id (TASK-042); list the tasks with the artifacts tool (action list, type task)"))
	}
	p, err := s.open()
	if err != nil {
		return nil, err
	}
	if mode, err := p.TargetMode(task); err != nil {
		return nil, s.fail(err)
	} else if mode != "links" {
		return nil, invalid(fmt.Errorf("ctxpack: %s is not an artifact id; work_on_task wants a task id (list the tasks with the artifacts tool, action list)", task))
	}
	res, err := s.promptContext(ctx, req, task)
	if err != nil {
		return nil, err
	}
	text := fmt.Sprintf(`Work on %s in this repository.

The context below was assembled by ctxpack from the task and the specs, decisions and norms its links reach (%d of %d tokens, digest %s). Follow the norms. A decision records why the code is as it is: do not undo one without saying so. Deprecated or superseded artifacts are not binding. Parts shown below full were lowered to fit; read one in full with the artifacts tool (action show), and search the code with the search tool or the context tool with free text. Cite the artifact ids you rely on.

%s`, task, res.Plan.TotalTokens, res.Plan.Budget, res.Plan.Digest, res.Output)
	return userPrompt("Work on "+task, text), nil
}

func (s *Server) reviewAgainstNorms(ctx context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	var paths []string
	for _, f := range strings.Split(req.Params.Arguments["paths"], ",") {
		if f = strings.TrimSpace(f); f != "" {
			if err := confine(f); err != nil {
				return nil, err
			}
			paths = append(paths, f)
		}
	}
	budget, err := s.promptBudget(req.Params.Arguments)
	if err != nil {
		return nil, err
	}
	p, norms, err := s.artifacts("norm")
	if err != nil {
		return nil, err
	}
	if len(norms) == 0 {
		return nil, errors.New("ctxpack: the project has no norms (.ctxpack/system/norms/): there is nothing to review against")
	}
	var b strings.Builder
	b.WriteString("Review the code below against each of the project's norms. For every place the code breaks a norm, give the norm's id, the file and line, what is wrong and the fix. Say which norms the code meets. Deprecated norms are not binding.\n\n")
	for _, n := range norms {
		v, _, err := p.Show(n.ID, "full", "text")
		if err != nil {
			return nil, s.fail(err)
		}
		b.Write(v.Output)
	}
	r := s.request(assembly{Budget: budget})
	r.Paths = paths
	res, err := p.Pack(ctx, r)
	if err != nil {
		return nil, s.fail(err)
	}
	s.finish(ctx, req.Session, p, r, res)
	b.WriteString("\n")
	b.Write(res.Output)
	return userPrompt("Review against norms", b.String()), nil
}

func (s *Server) explainContext(ctx context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	target := strings.TrimSpace(req.Params.Arguments["target"])
	if target == "" {
		return nil, invalid(errors.New("ctxpack: explain_context needs a target: a task id, a path of the project or free text"))
	}
	res, err := s.promptContext(ctx, req, target)
	if err != nil {
		return nil, err
	}
	plan := res.Plan
	plan.Content = "" // the plan is about the content; the parts say what it holds
	var b strings.Builder
	fmt.Fprintf(&b, "Explain the context ctxpack assembled for %q (%s mode): what each part is, why it is there (the link chain in via, or the relevance score and its components), at what level and how many tokens it takes, and what was left out and why (dropped, with each reason). Then say what, if anything, is missing for the work and how to get it (a larger budget, the artifacts tool's show action for one artifact in full, the search tool).\n\nThe plan:\n\n", target, plan.Mode)
	b.WriteString(jsonText(plan))
	return userPrompt("Explain the context for "+target, b.String()), nil
}
