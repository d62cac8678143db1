package server

// RoutePatterns lists the route table's patterns, for tests that must
// cover every route.
func (s *Server) RoutePatterns() []string {
	var out []string
	for _, rt := range s.routes() {
		out = append(out, rt.pattern)
	}
	return out
}

// PagePatterns lists the web interface's patterns, for the page walk.
func (s *Server) PagePatterns() []string {
	var out []string
	for _, p := range s.pages.Routes() {
		out = append(out, p.Pattern)
	}
	return out
}

// PageWrites maps each API write route that a page's post makes to that
// page's pattern, for the route-parity test.
func (s *Server) PageWrites() map[string]string {
	out := map[string]string{}
	for _, p := range s.pages.Routes() {
		if p.API != "" {
			out[p.API] = p.Pattern
		}
	}
	return out
}
