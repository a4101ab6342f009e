package deps

import (
	_ "github.com/chromedp/chromedp"
	_ "github.com/labstack/echo/v4"
	_ "github.com/labstack/echo/v4/middleware"
	_ "github.com/yuin/goldmark"
	_ "modernc.org/sqlite"
	_ "golang.org/x/time/rate"
)
