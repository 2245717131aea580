module packed

go 1.24
