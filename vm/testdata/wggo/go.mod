module wggo

go 1.25
