module github.com/fray-rpg/fray/web

go 1.26.0
