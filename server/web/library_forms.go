package web

// libraryRoutes are the pages of playbooks with their criteria, strategies with their rules, tags and their groups, and instruments.
func (s *Pages) libraryRoutes() []Route {
	return nil
}
