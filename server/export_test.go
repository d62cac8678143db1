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
