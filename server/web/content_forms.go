package web

// contentRoutes are the pages of write-ups, trading plans, chart books, report cards; payouts and expenses edited and deleted; documents replaced and deleted.
func (s *Pages) contentRoutes() []Route {
	return nil
}
