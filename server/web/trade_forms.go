package web

// tradeRoutes are the pages of trades: manual entry with fills, edit, delete, and the trade list's selection (bulk).
func (s *Pages) tradeRoutes() []Route {
	return nil
}
