module symlinks

go 1.26
