package web

// settingsRoutes are the pages of settings: the timezone, API keys, signing out everywhere.
func (s *Pages) settingsRoutes() []Route {
	return nil
}
